/*
 * pandas_agree._core._setmasks: rows of sets numbered by their bit masks, in C.
 *
 * An optional accelerator of pandas_agree._core.setcodes.dedupe_sets (built when a C
 * compiler is at hand; numpy gives the same result without it). One function:
 *
 *   first_codes(indptr, labels) -> (codes, first)
 *
 * Row i holds labels[indptr[i]:indptr[i + 1]], each label a code in 0..63. A row's mask is
 * the OR of 1 << label over its labels (repeats are harmless), so two rows share a mask
 * exactly when they hold the same set. codes[i] numbers row i's mask by first appearance
 * (the first row's mask is 0, the next new mask 1, ...) and first[c] is the first row whose
 * mask got code c: what numpy gives by prefix sums of bits and a table of keys, here in one
 * pass over the labels with a hash table of the masks seen so far.
 *
 * The arrays are the caller's own intp vectors (checked: 1-d, C-contiguous, aligned, native
 * byte order); the pass runs without the GIL, reading them and writing only memory
 * allocated here. Row pointers out of order or out of range, and labels outside 0..63,
 * raise ValueError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <stdint.h>
#include <string.h>

/* Open addressing over masks; a slot with code -1 is empty. */
typedef struct {
    uint64_t *masks;
    npy_intp *codes;
    npy_intp capacity; /* 2**bits, at least twice the number of masks held */
    int bits;
} table;

static int
table_init(table *t, int bits)
{
    npy_intp capacity = (npy_intp)1 << bits;
    t->capacity = capacity;
    t->bits = bits;
    t->masks = (uint64_t *)PyMem_RawMalloc((size_t)capacity * sizeof(uint64_t));
    t->codes = (npy_intp *)PyMem_RawMalloc((size_t)capacity * sizeof(npy_intp));
    if (t->masks == NULL || t->codes == NULL) {
        return -1;
    }
    for (npy_intp s = 0; s < capacity; s++) {
        t->codes[s] = -1;
    }
    return 0;
}

static void
table_free(table *t)
{
    PyMem_RawFree(t->masks);
    PyMem_RawFree(t->codes);
}

static inline npy_intp
slot_of(uint64_t mask, int bits)
{
    /* Fibonacci hashing: the top `bits` bits of the product, which depend on every bit of
     * the mask (a lower bit p of the product depends only on bits 0..p of the mask, so
     * masks that differ only in high labels would all meet in one slot) */
    return (npy_intp)((mask * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits));
}

/* The slot holding `mask`, or the empty slot where it belongs. */
static inline npy_intp
probe(const table *t, uint64_t mask)
{
    npy_intp s = slot_of(mask, t->bits);
    while (t->codes[s] >= 0 && t->masks[s] != mask) {
        s = (s + 1) & (t->capacity - 1);
    }
    return s;
}

/* The same masks in a table twice as large. */
static int
table_grow(table *t)
{
    table old = *t;
    if (old.bits + 1 > (int)(8 * sizeof(npy_intp)) - 4) { /* its bytes would overflow */
        return -1;
    }
    if (table_init(t, old.bits + 1) < 0) {
        table_free(t);
        *t = old;
        return -1;
    }
    for (npy_intp s = 0; s < old.capacity; s++) {
        if (old.codes[s] >= 0) {
            npy_intp at = probe(t, old.masks[s]);
            t->masks[at] = old.masks[s];
            t->codes[at] = old.codes[s];
        }
    }
    table_free(&old);
    return 0;
}

static int
is_intp_vector(PyObject *obj)
{
    if (!PyArray_Check(obj)) {
        return 0;
    }
    PyArrayObject *a = (PyArrayObject *)obj;
    /* ISCARRAY_RO: C-contiguous, aligned and in native byte order; the type may be any
     * integer type that is npy_intp (long long beside long on Linux) */
    return PyArray_NDIM(a) == 1 && PyArray_EquivTypenums(PyArray_TYPE(a), NPY_INTP) &&
           PyArray_ISCARRAY_RO(a);
}

enum outcome { DONE, NO_MEMORY, BAD_POINTERS, BAD_LABEL };

static PyObject *
setmasks_first_codes(PyObject *module, PyObject *args)
{
    PyObject *indptr_obj, *labels_obj;
    if (!PyArg_ParseTuple(args, "OO:first_codes", &indptr_obj, &labels_obj)) {
        return NULL;
    }
    if (!is_intp_vector(indptr_obj) || !is_intp_vector(labels_obj) ||
        PyArray_DIM((PyArrayObject *)indptr_obj, 0) < 1) {
        PyErr_SetString(PyExc_TypeError,
                        "indptr and labels must be 1-d C-contiguous intp arrays, indptr "
                        "non-empty");
        return NULL;
    }
    const npy_intp *indptr = (const npy_intp *)PyArray_DATA((PyArrayObject *)indptr_obj);
    const npy_intp *labels = (const npy_intp *)PyArray_DATA((PyArrayObject *)labels_obj);
    npy_intp n = PyArray_DIM((PyArrayObject *)indptr_obj, 0) - 1;
    npy_intp n_labels = PyArray_DIM((PyArrayObject *)labels_obj, 0);

    PyArrayObject *codes_arr = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_INTP);
    npy_intp *first = (npy_intp *)PyMem_RawMalloc((size_t)(n > 0 ? n : 1) * sizeof(npy_intp));
    table t = {NULL, NULL, 0, 0};
    PyObject *result = NULL;
    if (codes_arr == NULL || first == NULL || table_init(&t, 10) < 0) {
        if (codes_arr != NULL) {
            PyErr_NoMemory();
        }
        goto finally;
    }
    npy_intp *codes = (npy_intp *)PyArray_DATA(codes_arr);
    npy_intp n_codes = 0;
    enum outcome outcome = DONE;

    Py_BEGIN_ALLOW_THREADS
    npy_intp start = indptr[0];
    if (start < 0 || start > n_labels) {
        outcome = BAD_POINTERS;
    }
    for (npy_intp i = 0; i < n && outcome == DONE; i++) { /* a bad start skips the loop */
        npy_intp end = indptr[i + 1];
        if (end < start || end > n_labels) {
            outcome = BAD_POINTERS;
            break;
        }
        uint64_t mask = 0, bad = 0;
        for (npy_intp j = start; j < end; j++) {
            uint64_t label = (uint64_t)labels[j];
            bad |= label >> 6; /* outside 0..63 (a negative code too) */
            mask |= UINT64_C(1) << (label & 63);
        }
        if (bad) {
            outcome = BAD_LABEL;
            break;
        }
        start = end;
        npy_intp s = probe(&t, mask);
        if (t.codes[s] < 0) {
            if (2 * (n_codes + 1) > t.capacity) {
                if (table_grow(&t) < 0) {
                    outcome = NO_MEMORY;
                    break;
                }
                s = probe(&t, mask);
            }
            t.masks[s] = mask;
            t.codes[s] = n_codes;
            first[n_codes++] = i;
        }
        codes[i] = t.codes[s];
    }
    Py_END_ALLOW_THREADS

    if (outcome == NO_MEMORY) {
        PyErr_NoMemory();
        goto finally;
    }
    if (outcome != DONE) {
        PyErr_SetString(PyExc_ValueError,
                        outcome == BAD_LABEL
                            ? "labels must be codes in 0..63"
                            : "indptr must be non-decreasing row pointers into labels");
        goto finally;
    }
    PyArrayObject *first_arr = (PyArrayObject *)PyArray_SimpleNew(1, &n_codes, NPY_INTP);
    if (first_arr != NULL) {
        memcpy(PyArray_DATA(first_arr), first, (size_t)n_codes * sizeof(npy_intp));
        result = PyTuple_Pack(2, (PyObject *)codes_arr, (PyObject *)first_arr);
        Py_DECREF(first_arr);
    }

finally:
    table_free(&t);
    PyMem_RawFree(first);
    Py_XDECREF(codes_arr);
    return result;
}

static PyMethodDef setmasks_methods[] = {
    {"first_codes", setmasks_first_codes, METH_VARARGS,
     "first_codes(indptr, labels) -> (codes, first)\n\n"
     "Rows of label codes 0..63 (row i: labels[indptr[i]:indptr[i + 1]]) numbered by their\n"
     "sets in order of first appearance (intp), and the first row of each code (intp)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef setmasks_module = {
    PyModuleDef_HEAD_INIT, "_setmasks",
    "Rows of sets numbered by their bit masks, in C (an optional accelerator).", -1,
    setmasks_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__setmasks(void)
{
    import_array();
    PyObject *module = PyModule_Create(&setmasks_module);
    if (module == NULL) {
        return NULL;
    }
    PyObject *all = Py_BuildValue("[s]", "first_codes");
    if (all == NULL || PyModule_AddObject(module, "__all__", all) < 0) {
        Py_XDECREF(all);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
