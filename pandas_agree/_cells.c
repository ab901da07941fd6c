/*
 * pandas_agree._cells: the items of set-valued cells, read in C.
 *
 * An optional accelerator of pandas_agree.setvalues.from_objects (built when a C compiler
 * is at hand; the pure-Python passes give the same result without it). One function:
 *
 *   read(cells) -> (present, flat, lengths) or None
 *
 * over a 1-d aligned object array of cells. A cell is missing (None, an empty slot, or a
 * float NaN), or a list, tuple, set, frozenset or 1-d aligned numpy object array whose
 * items are read as they are: the very objects, new references, in the order list(cell)
 * gives them (an empty slot of an object array is None, as numpy reads it). Any other cell
 * (a scalar, pd.NA, a dict, an array of another dtype, a subclass) makes the answer None:
 * the caller then takes the general passes, which know every rule. Nothing here hashes or
 * compares an item, so the labels stay exactly the Python objects; pandas.factorize codes
 * them afterwards.
 *
 * Safety: a first pass takes each cell's length, a second copies the items into arrays
 * allocated here (no other code sees them, and their slots start empty, so writing one
 * frees nothing). The garbage collector is off from the first pass to the end of the
 * second: a set's iterator, the one object allocated meanwhile, could otherwise start it
 * (Python 3.11), and with it __del__ methods and callbacks that change the column. So no
 * other code runs during the read, which is of the column at one moment. Each cell is
 * still reloaded, held while read and its length checked against the first pass, so that
 * a change could only ever give None, never a mixture.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <math.h>
#include <string.h>

enum kind { MISSING, SEQUENCE, SET, ARRAY, OTHER };

/* Whether an array can be read here: 1-d, dtype object, aligned pointers. */
static int
is_object_vector(PyArrayObject *array)
{
    return PyArray_NDIM(array) == 1 && PyArray_TYPE(array) == NPY_OBJECT &&
           PyArray_ISALIGNED(array);
}

static enum kind
kind_of(PyObject *cell)
{
    if (cell == NULL || cell == Py_None) {
        return MISSING;
    }
    if (PyList_CheckExact(cell) || PyTuple_CheckExact(cell)) {
        return SEQUENCE;
    }
    if (PyFloat_CheckExact(cell) && isnan(PyFloat_AS_DOUBLE(cell))) {
        return MISSING;
    }
    if (PyAnySet_CheckExact(cell)) {
        return SET;
    }
    if (PyArray_CheckExact(cell) && is_object_vector((PyArrayObject *)cell)) {
        return ARRAY;
    }
    return OTHER;
}

/* The number of items of a cell of a readable kind. */
static Py_ssize_t
length_of(PyObject *cell, enum kind kind)
{
    switch (kind) {
    case SEQUENCE:
        return Py_SIZE(cell);
    case SET:
        return PySet_GET_SIZE(cell);
    case ARRAY:
        return (Py_ssize_t)PyArray_DIM((PyArrayObject *)cell, 0);
    default:
        return 0;
    }
}

/* Item i of a 1-d aligned object array (an empty slot reads as None), borrowed. */
static inline PyObject *
item_of(PyArrayObject *array, npy_intp i)
{
    PyObject *item = *(PyObject **)(PyArray_BYTES(array) + i * PyArray_STRIDE(array, 0));
    return item == NULL ? Py_None : item;
}

/* Copy the items of one cell into flat[at:at + length] as new references. Returns 1 when
 * done, 0 when the cell no longer holds `length` items, -1 on an error (set). */
static int
copy_items(PyObject *cell, enum kind kind, Py_ssize_t length, PyObject **flat,
           Py_ssize_t at)
{
    if (length_of(cell, kind) != length) {
        return 0;
    }
    if (kind == SEQUENCE) {
        PyObject **items = PyList_CheckExact(cell) ? ((PyListObject *)cell)->ob_item
                                                   : ((PyTupleObject *)cell)->ob_item;
        for (Py_ssize_t j = 0; j < length; j++) {
            Py_INCREF(items[j]);
            flat[at + j] = items[j];
        }
        return 1;
    }
    if (kind == ARRAY) {
        for (Py_ssize_t j = 0; j < length; j++) {
            PyObject *item = item_of((PyArrayObject *)cell, j);
            Py_INCREF(item);
            flat[at + j] = item;
        }
        return 1;
    }
    /* a set: its iterator is the one object allocated during the read (which could start
     * the garbage collector, were it on) */
    PyObject *iter = PyObject_GetIter(cell);
    if (iter == NULL) {
        return -1;
    }
    Py_ssize_t j = 0;
    PyObject *item;
    int done = 1;
    while ((item = PyIter_Next(iter)) != NULL) {
        if (j == length) {
            Py_DECREF(item);
            done = 0;
            break;
        }
        flat[at + j++] = item; /* PyIter_Next gave a new reference */
    }
    Py_DECREF(iter);
    if (PyErr_Occurred()) {
        return -1;
    }
    return done && j == length;
}

static PyObject *
cells_read(PyObject *module, PyObject *arg)
{
    if (!PyArray_Check(arg) || !is_object_vector((PyArrayObject *)arg)) {
        PyErr_SetString(PyExc_TypeError, "cells must be a 1-d aligned numpy object array");
        return NULL;
    }
    PyArrayObject *cells = (PyArrayObject *)arg;
    npy_intp n = PyArray_DIM(cells, 0);
    PyArrayObject *present = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_BOOL);
    PyArrayObject *lengths = (PyArrayObject *)PyArray_SimpleNew(1, &n, NPY_INTP);
    PyArrayObject *flat = NULL;
    PyObject *result = NULL;
    int gc_was_enabled = 0; /* set below: the collector is off during both passes */
    if (present == NULL || lengths == NULL) {
        goto finally;
    }
    npy_bool *is_present = (npy_bool *)PyArray_DATA(present);
    npy_intp *length = (npy_intp *)PyArray_DATA(lengths);

    /* pass 1: presence and lengths */
    gc_was_enabled = PyGC_Disable();
    npy_intp n_present = 0, total = 0;
    for (npy_intp i = 0; i < n; i++) {
        PyObject *cell = *(PyObject **)(PyArray_BYTES(cells) + i * PyArray_STRIDE(cells, 0));
        enum kind kind = kind_of(cell);
        if (kind == OTHER) {
            result = Py_None; /* a cell for the general passes */
            goto finally;
        }
        is_present[i] = kind != MISSING;
        if (kind == MISSING) {
            continue;
        }
        Py_ssize_t k = length_of(cell, kind);
        if (k > NPY_MAX_INTP - total) {
            result = Py_None; /* more items than an array can index */
            goto finally;
        }
        length[n_present++] = k;
        total += k;
    }

    /* pass 2: the items, into slots that start empty (object arrays are zero-filled) */
    flat = (PyArrayObject *)PyArray_SimpleNew(1, &total, NPY_OBJECT);
    if (flat == NULL) {
        goto finally;
    }
    PyObject **out = (PyObject **)PyArray_DATA(flat);
    npy_intp at = 0, row = 0;
    for (npy_intp i = 0; i < n; i++) {
        PyObject *cell = *(PyObject **)(PyArray_BYTES(cells) + i * PyArray_STRIDE(cells, 0));
        enum kind kind = kind_of(cell);
        if ((kind == MISSING) != !is_present[i] || kind == OTHER) {
            result = Py_None; /* the column changed since pass 1 */
            goto finally;
        }
        if (kind == MISSING) {
            continue;
        }
        Py_INCREF(cell); /* held while read: a guard, as the length check below */
        int done = copy_items(cell, kind, length[row], out, at);
        Py_DECREF(cell);
        if (done < 0) {
            goto finally;
        }
        if (done == 0 || PyArray_DIM(cells, 0) != n) { /* changed since pass 1 */
            result = Py_None;
            goto finally;
        }
        at += length[row++];
    }
    if (gc_was_enabled) {
        PyGC_Enable();
        gc_was_enabled = 0;
    }
    PyArrayObject *used = (PyArrayObject *)PyArray_SimpleNew(1, &n_present, NPY_INTP);
    if (used != NULL) {
        memcpy(PyArray_DATA(used), length, (size_t)n_present * sizeof(npy_intp));
        result = PyTuple_Pack(3, (PyObject *)present, (PyObject *)flat, (PyObject *)used);
        Py_DECREF(used);
    }

finally:
    if (gc_was_enabled) {
        PyGC_Enable();
    }
    Py_XDECREF(present);
    Py_XDECREF(lengths);
    Py_XDECREF(flat); /* frees the items copied so far when the answer is not flat */
    if (result == Py_None) {
        Py_RETURN_NONE;
    }
    return result;
}

static PyMethodDef cells_methods[] = {
    {"read", cells_read, METH_O,
     "read(cells) -> (present, flat, lengths) or None\n\n"
     "For a 1-d object array of cells: which cells are present (bool), every item of the\n"
     "present cells in order (object), and each present cell's number of items (intp);\n"
     "None when a cell is not None, a float NaN, a list, tuple, set, frozenset or 1-d\n"
     "object array, or when the column changed while it was read."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef cells_module = {
    PyModuleDef_HEAD_INIT, "_cells",
    "The items of set-valued cells, read in C (an optional accelerator).", -1, cells_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__cells(void)
{
    import_array();
    PyObject *module = PyModule_Create(&cells_module);
    if (module == NULL) {
        return NULL;
    }
    PyObject *all = Py_BuildValue("[s]", "read");
    if (all == NULL || PyModule_AddObject(module, "__all__", all) < 0) {
        Py_XDECREF(all);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
