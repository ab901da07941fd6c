/*
 * pandas_agree._core._firstcodes: 64-bit keys numbered by first appearance, in C.
 *
 * An optional accelerator (built when a C compiler is at hand; numpy gives the same
 * results without it) of two places that number keys exact by construction:
 *
 *   sets(indptr, labels) -> (codes, first)
 *       Row i holds labels[indptr[i]:indptr[i + 1]], each label a code in 0..63; its key is
 *       its bit mask, the OR of 1 << label over its labels (repeats are harmless), so two
 *       rows share a key exactly when they hold the same set. For
 *       pandas_agree._core.setcodes.dedupe_sets.
 *
 *   short_strings(offsets, data) -> (codes, keys) or None
 *       String i is data[offsets[i]:offsets[i + 1]] (Arrow's layout: int32 or int64
 *       offsets, UTF-8 bytes); its key is its bytes packed big-endian above its length,
 *       which *is* the string when it has at most 7 bytes. None as soon as a string has
 *       more (the offsets after it are not read). For pandas_agree.shortstrings and the
 *       labels of Arrow list columns.
 *
 * codes[i] numbers item i's key by first appearance (the first item's code is 0, the next
 * new key's 1, ...); first[c] is the first row whose key got code c, keys[c] that key. One
 * pass over the items with a hash table of the keys seen so far.
 *
 * The arrays are the caller's own vectors (checked: 1-d, C-contiguous, aligned, native
 * byte order, of the stated types); the pass runs without the GIL, reading them and
 * writing only memory allocated here. Row pointers or offsets out of order or out of
 * range, and labels outside 0..63, raise ValueError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <stdint.h>
#include <string.h>

/* Open addressing over keys; a slot with code -1 is empty. */
typedef struct {
    uint64_t *keys;
    npy_intp *codes;
    npy_intp capacity; /* 2**bits, at least twice the number of keys held */
    int bits;
} table;

static int
table_init(table *t, int bits)
{
    npy_intp capacity = (npy_intp)1 << bits;
    t->capacity = capacity;
    t->bits = bits;
    t->keys = (uint64_t *)PyMem_RawMalloc((size_t)capacity * sizeof(uint64_t));
    t->codes = (npy_intp *)PyMem_RawMalloc((size_t)capacity * sizeof(npy_intp));
    if (t->keys == NULL || t->codes == NULL) {
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
    PyMem_RawFree(t->keys);
    PyMem_RawFree(t->codes);
}

static inline npy_intp
slot_of(uint64_t key, int bits)
{
    /* Fibonacci hashing: the top `bits` bits of the product, which depend on every bit of
     * the key (a lower bit p of the product depends only on bits 0..p of the key, so keys
     * that differ only in high bits would all meet in one slot) */
    return (npy_intp)((key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - bits));
}

/* The slot holding `key`, or the empty slot where it belongs. */
static inline npy_intp
probe(const table *t, uint64_t key)
{
    npy_intp s = slot_of(key, t->bits);
    while (t->codes[s] >= 0 && t->keys[s] != key) {
        s = (s + 1) & (t->capacity - 1);
    }
    return s;
}

/* The same keys in a table twice as large. */
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
            npy_intp at = probe(t, old.keys[s]);
            t->keys[at] = old.keys[s];
            t->codes[at] = old.codes[s];
        }
    }
    table_free(&old);
    return 0;
}

/* Items numbered by their keys: the table, the codes of the items (an array made here),
 * and for each code either its first item (`first`) or its key (`keys`): the one the
 * caller returns, the other NULL. */
typedef struct {
    table t;
    PyArrayObject *codes; /* one per item */
    npy_intp *first;      /* room for one per item, or NULL */
    uint64_t *keys;       /* room for one per item, or NULL */
    npy_intp n_codes;
} numbering;

/* 0, or -1 with an error set (numbering_free then frees what was made). `type` is what
 * numbering_result returns for each code: NPY_INTP the first item, NPY_UINT64 the key. */
static int
numbering_init(numbering *nb, npy_intp n, int type)
{
    size_t room = (size_t)(n > 0 ? n : 1);
    nb->n_codes = 0;
    nb->first = NULL;
    nb->keys = NULL;
    nb->t.keys = NULL;
    nb->t.codes = NULL;
    nb->codes = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_INTP);
    if (nb->codes == NULL) {
        return -1;
    }
    if (type == NPY_UINT64) {
        nb->keys = (uint64_t *)PyMem_RawMalloc(room * sizeof(uint64_t));
    }
    else {
        nb->first = (npy_intp *)PyMem_RawMalloc(room * sizeof(npy_intp));
    }
    if ((nb->first == NULL && nb->keys == NULL) || table_init(&nb->t, 10) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void
numbering_free(numbering *nb)
{
    table_free(&nb->t);
    PyMem_RawFree(nb->first);
    PyMem_RawFree(nb->keys);
    Py_XDECREF(nb->codes);
}

/* Give item i the code of `key` (a new code when the key is new); -1 when out of memory.
 * Needs no GIL. */
static inline int
number(numbering *nb, npy_intp *codes, npy_intp i, uint64_t key)
{
    npy_intp s = probe(&nb->t, key);
    if (nb->t.codes[s] < 0) {
        if (2 * (nb->n_codes + 1) > nb->t.capacity) {
            if (table_grow(&nb->t) < 0) {
                return -1;
            }
            s = probe(&nb->t, key);
        }
        nb->t.keys[s] = key;
        nb->t.codes[s] = nb->n_codes;
        if (nb->keys != NULL) {
            nb->keys[nb->n_codes] = key;
        }
        else {
            nb->first[nb->n_codes] = i;
        }
        nb->n_codes++;
    }
    codes[i] = nb->t.codes[s];
    return 0;
}

/* (codes, what): for each code its first item (NPY_INTP) or its key (NPY_UINT64), as
 * numbering_init was told; NULL with an error set. */
static PyObject *
numbering_result(numbering *nb)
{
    npy_intp k = nb->n_codes;
    int type = nb->keys != NULL ? NPY_UINT64 : NPY_INTP;
    PyArrayObject *what = (PyArrayObject *)PyArray_SimpleNew(1, &k, type);
    if (what == NULL) {
        return NULL;
    }
    if (nb->keys != NULL) {
        memcpy(PyArray_DATA(what), nb->keys, (size_t)k * sizeof(uint64_t));
    }
    else {
        memcpy(PyArray_DATA(what), nb->first, (size_t)k * sizeof(npy_intp));
    }
    PyObject *result = PyTuple_Pack(2, (PyObject *)nb->codes, (PyObject *)what);
    Py_DECREF(what);
    return result;
}

/* A 1-d C-contiguous aligned array in native byte order whose type is `type` (or any
 * integer type that is the same C type: long long beside long on Linux). */
static int
is_vector_of(PyObject *obj, int type)
{
    if (!PyArray_Check(obj)) {
        return 0;
    }
    PyArrayObject *a = (PyArrayObject *)obj;
    return PyArray_NDIM(a) == 1 && PyArray_EquivTypenums(PyArray_TYPE(a), type) &&
           PyArray_ISCARRAY_RO(a);
}

enum outcome { DONE, NO_MEMORY, BAD_POINTERS, BAD_LABEL, TOO_LONG };

/* The error of an outcome (NULL), or None for TOO_LONG. */
static PyObject *
failed(enum outcome outcome, const char *pointers)
{
    switch (outcome) {
    case NO_MEMORY:
        return PyErr_NoMemory();
    case BAD_LABEL:
        PyErr_SetString(PyExc_ValueError, "labels must be codes in 0..63");
        return NULL;
    case BAD_POINTERS:
        PyErr_Format(PyExc_ValueError, "%s must be non-decreasing pointers into %s", pointers,
                     strcmp(pointers, "indptr") == 0 ? "labels" : "data");
        return NULL;
    default:
        Py_RETURN_NONE;
    }
}

static PyObject *
firstcodes_sets(PyObject *module, PyObject *args)
{
    PyObject *indptr_obj, *labels_obj;
    if (!PyArg_ParseTuple(args, "OO:sets", &indptr_obj, &labels_obj)) {
        return NULL;
    }
    if (!is_vector_of(indptr_obj, NPY_INTP) || !is_vector_of(labels_obj, NPY_INTP) ||
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
    numbering nb;
    PyObject *result = NULL;
    if (numbering_init(&nb, n, NPY_INTP) < 0) {
        goto finally;
    }
    npy_intp *codes = (npy_intp *)PyArray_DATA(nb.codes);
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
        if (number(&nb, codes, i, mask) < 0) {
            outcome = NO_MEMORY;
        }
    }
    Py_END_ALLOW_THREADS

    result = outcome == DONE ? numbering_result(&nb) : failed(outcome, "indptr");
finally:
    numbering_free(&nb);
    return result;
}

/* The longest string packed into a key: its bytes big-endian from the top byte, its
 * length in the low byte. */
#define SHORT_BYTES 7

static PyObject *
firstcodes_short_strings(PyObject *module, PyObject *args)
{
    PyObject *offsets_obj, *data_obj;
    if (!PyArg_ParseTuple(args, "OO:short_strings", &offsets_obj, &data_obj)) {
        return NULL;
    }
    int wide = is_vector_of(offsets_obj, NPY_INT64);
    if (!(wide || is_vector_of(offsets_obj, NPY_INT32)) || !is_vector_of(data_obj, NPY_UINT8) ||
        PyArray_DIM((PyArrayObject *)offsets_obj, 0) < 1) {
        PyErr_SetString(PyExc_TypeError,
                        "offsets must be a non-empty 1-d C-contiguous int32 or int64 array, "
                        "data a 1-d C-contiguous uint8 array");
        return NULL;
    }
    const void *offsets = PyArray_DATA((PyArrayObject *)offsets_obj);
    const unsigned char *data = (const unsigned char *)PyArray_DATA((PyArrayObject *)data_obj);
    npy_intp n = PyArray_DIM((PyArrayObject *)offsets_obj, 0) - 1;
    int64_t n_bytes = (int64_t)PyArray_DIM((PyArrayObject *)data_obj, 0);
    numbering nb;
    PyObject *result = NULL;
    if (numbering_init(&nb, n, NPY_UINT64) < 0) {
        goto finally;
    }
    npy_intp *codes = (npy_intp *)PyArray_DATA(nb.codes);
    enum outcome outcome = DONE;

    Py_BEGIN_ALLOW_THREADS
#define OFFSET(i) (wide ? ((const int64_t *)offsets)[i] : (int64_t)((const int32_t *)offsets)[i])
    int64_t start = OFFSET(0);
    if (start < 0 || start > n_bytes) {
        outcome = BAD_POINTERS;
    }
    for (npy_intp i = 0; i < n && outcome == DONE; i++) {
        int64_t end = OFFSET(i + 1);
        if (end < start || end > n_bytes) {
            outcome = BAD_POINTERS;
            break;
        }
        int64_t length = end - start;
        if (length > SHORT_BYTES) {
            outcome = TOO_LONG;
            break;
        }
        uint64_t key = (uint64_t)length;
        for (int64_t j = 0; j < length; j++) {
            key |= (uint64_t)data[start + j] << (8 * (SHORT_BYTES - j));
        }
        start = end;
        if (number(&nb, codes, i, key) < 0) {
            outcome = NO_MEMORY;
        }
    }
#undef OFFSET
    Py_END_ALLOW_THREADS

    result = outcome == DONE ? numbering_result(&nb) : failed(outcome, "offsets");
finally:
    numbering_free(&nb);
    return result;
}

static PyMethodDef firstcodes_methods[] = {
    {"sets", firstcodes_sets, METH_VARARGS,
     "sets(indptr, labels) -> (codes, first)\n\n"
     "Rows of label codes 0..63 (row i: labels[indptr[i]:indptr[i + 1]]) numbered by their\n"
     "sets in order of first appearance (intp), and the first row of each code (intp)."},
    {"short_strings", firstcodes_short_strings, METH_VARARGS,
     "short_strings(offsets, data) -> (codes, keys) or None\n\n"
     "Strings (string i: data[offsets[i]:offsets[i + 1]]) numbered in order of first\n"
     "appearance (intp), and the key of each code (uint64: the bytes big-endian from the\n"
     "top byte, the length in the low byte); None when a string has more than 7 bytes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef firstcodes_module = {
    PyModuleDef_HEAD_INIT, "_firstcodes",
    "64-bit keys numbered by first appearance, in C (an optional accelerator).", -1,
    firstcodes_methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__firstcodes(void)
{
    import_array();
    PyObject *module = PyModule_Create(&firstcodes_module);
    if (module == NULL) {
        return NULL;
    }
    PyObject *all = Py_BuildValue("[ss]", "sets", "short_strings");
    if (all == NULL || PyModule_AddObject(module, "__all__", all) < 0) {
        Py_XDECREF(all);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
