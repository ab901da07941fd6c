/*
 * pandas_agree._cells: the items of set-valued cells, read in C.
 *
 * An optional accelerator of pandas_agree.setvalues.from_objects (built when a C compiler
 * is at hand; the pure-Python passes give the same result without it). Two functions over
 * a 1-d object array of cells:
 *
 *   lengths(cells, present, lengths) -> total number of items, or -1
 *   fill(cells, flat)                -> None
 *
 * A cell is missing (None, or a float NaN), or a list, tuple, set, frozenset or 1-d numpy
 * object array whose items are read as they are (the same objects, no conversion). Any
 * other cell (a scalar, pd.NA, a dict, an array of another dtype, a subclass) makes
 * lengths() answer -1: the caller then takes the general pass, which knows every rule.
 * Nothing here hashes or compares an item, so the labels stay exactly the Python objects;
 * pandas.factorize codes them afterwards.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <math.h>
#include <string.h>

enum kind { MISSING, SEQUENCE, SET, ARRAY, OTHER };

static enum kind
kind_of(PyObject *cell)
{
    if (cell == NULL) {
        return OTHER;
    }
    if (cell == Py_None) {
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
    if (PyArray_CheckExact(cell)) {
        return ARRAY;
    }
    return OTHER;
}

/* Whether a buffer format is numpy's object code ("O", maybe after a byte-order mark). */
static int
is_object_format(const char *format)
{
    if (format == NULL) {
        return 0;
    }
    if (format[0] != '\0' && strchr("@=<>!|", format[0]) != NULL) {
        format++;
    }
    return strcmp(format, "O") == 0;
}

/* Whether an array cell is 1-d of dtype object (its items are then the cell's objects). */
static int
is_object_vector(PyObject *cell)
{
    PyArrayObject *array = (PyArrayObject *)cell;
    return PyArray_NDIM(array) == 1 && PyArray_TYPE(array) == NPY_OBJECT;
}

/* A contiguous 1-d object buffer of obj; 0 (error cleared) when obj has none. */
static int
object_buffer(PyObject *obj, Py_buffer *view)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (view->ndim != 1 || view->itemsize != (Py_ssize_t)sizeof(PyObject *) ||
        !is_object_format(view->format)) {
        PyBuffer_Release(view);
        return 0;
    }
    return 1;
}

/* The cells of the first argument: a contiguous 1-d object array, or a TypeError. */
static int
cells_buffer(PyObject *cells, Py_buffer *view)
{
    if (!object_buffer(cells, view)) {
        PyErr_SetString(PyExc_TypeError, "cells must be a contiguous 1-d object array");
        return 0;
    }
    return 1;
}

/* A writable contiguous buffer of n items of the given size, or an error. */
static int
out_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t n, Py_ssize_t itemsize, const char *name)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE) < 0) {
        return 0;
    }
    if (view->len != n * itemsize) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items of %zd bytes", name, n, itemsize);
        return 0;
    }
    return 1;
}

static PyObject *
cells_lengths(PyObject *module, PyObject *args)
{
    PyObject *cells, *present_obj, *lengths_obj;
    Py_buffer cv, pv, lv;
    if (!PyArg_ParseTuple(args, "OOO:lengths", &cells, &present_obj, &lengths_obj)) {
        return NULL;
    }
    if (!cells_buffer(cells, &cv)) {
        return NULL;
    }
    Py_ssize_t n = cv.len / (Py_ssize_t)sizeof(PyObject *);
    if (!out_buffer(present_obj, &pv, n, 1, "present")) {
        PyBuffer_Release(&cv);
        return NULL;
    }
    if (!out_buffer(lengths_obj, &lv, n, (Py_ssize_t)sizeof(Py_ssize_t), "lengths")) {
        PyBuffer_Release(&cv);
        PyBuffer_Release(&pv);
        return NULL;
    }
    PyObject **items = (PyObject **)cv.buf;
    char *present = (char *)pv.buf;
    Py_ssize_t *lengths = (Py_ssize_t *)lv.buf;
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *cell = items[i];
        Py_ssize_t length = 0;
        switch (kind_of(cell)) {
        case MISSING:
            present[i] = 0;
            lengths[i] = 0;
            continue;
        case SEQUENCE:
            length = Py_SIZE(cell);
            break;
        case SET:
            length = PySet_GET_SIZE(cell);
            break;
        case ARRAY:
            if (!is_object_vector(cell)) {
                total = -1;
                goto done;
            }
            length = PyArray_DIM((PyArrayObject *)cell, 0);
            break;
        default:
            total = -1;
            goto done;
        }
        present[i] = 1;
        lengths[i] = length;
        total += length;
    }
done:
    PyBuffer_Release(&cv);
    PyBuffer_Release(&pv);
    PyBuffer_Release(&lv);
    return PyLong_FromSsize_t(total);
}

/* Store a new reference in flat[at] (an object array's slot holds a reference too). */
static inline void
put(PyObject **flat, Py_ssize_t at, PyObject *item)
{
    PyObject *old = flat[at];
    flat[at] = item;
    Py_XDECREF(old);
}

static PyObject *
cells_fill(PyObject *module, PyObject *args)
{
    PyObject *cells, *flat_obj;
    Py_buffer cv, fv;
    if (!PyArg_ParseTuple(args, "OO:fill", &cells, &flat_obj)) {
        return NULL;
    }
    if (!cells_buffer(cells, &cv)) {
        return NULL;
    }
    if (!object_buffer(flat_obj, &fv)) {
        PyBuffer_Release(&cv);
        PyErr_SetString(PyExc_TypeError, "flat must be a writable contiguous 1-d object array");
        return NULL;
    }
    if (fv.readonly) {
        PyBuffer_Release(&fv);
        PyBuffer_Release(&cv);
        PyErr_SetString(PyExc_TypeError, "flat must be a writable contiguous 1-d object array");
        return NULL;
    }
    PyObject **items = (PyObject **)cv.buf;
    PyObject **flat = (PyObject **)fv.buf;
    Py_ssize_t n = cv.len / (Py_ssize_t)sizeof(PyObject *);
    Py_ssize_t size = fv.len / (Py_ssize_t)sizeof(PyObject *);
    Py_ssize_t at = 0;
    int ok = 1;
    for (Py_ssize_t i = 0; i < n && ok; i++) {
        PyObject *cell = items[i];
        switch (kind_of(cell)) {
        case MISSING:
            break;
        case SEQUENCE: {
            Py_ssize_t length = Py_SIZE(cell);
            PyObject **src = PyList_CheckExact(cell) ? ((PyListObject *)cell)->ob_item
                                                     : ((PyTupleObject *)cell)->ob_item;
            if (length > size - at) {
                ok = 0;
                break;
            }
            for (Py_ssize_t j = 0; j < length; j++) {
                Py_INCREF(src[j]);
                put(flat, at++, src[j]);
            }
            break;
        }
        case SET: {
            PyObject *iter = PyObject_GetIter(cell);
            PyObject *item;
            if (iter == NULL) {
                ok = -1;
                break;
            }
            while ((item = PyIter_Next(iter)) != NULL) {
                if (at >= size) {
                    Py_DECREF(item);
                    ok = 0;
                    break;
                }
                put(flat, at++, item); /* PyIter_Next gave a new reference */
            }
            Py_DECREF(iter);
            if (ok == 1 && PyErr_Occurred()) {
                ok = -1;
            }
            break;
        }
        case ARRAY: {
            PyArrayObject *array = (PyArrayObject *)cell;
            Py_ssize_t length = PyArray_DIM(array, 0);
            Py_ssize_t stride = PyArray_STRIDE(array, 0);
            char *data = PyArray_BYTES(array);
            if (!is_object_vector(cell) || length > size - at) {
                ok = 0;
                break;
            }
            for (Py_ssize_t j = 0; j < length; j++) {
                PyObject *item = *(PyObject **)(data + j * stride);
                if (item == NULL) {
                    ok = 0;
                    break;
                }
                Py_INCREF(item);
                put(flat, at++, item);
            }
            break;
        }
        default:
            ok = 0;
        }
    }
    PyBuffer_Release(&cv);
    PyBuffer_Release(&fv);
    if (ok == -1) {
        return NULL;
    }
    if (ok == 0 || at != size) {
        PyErr_SetString(PyExc_RuntimeError,
                        "the cells changed between lengths() and fill(), or flat has the "
                        "wrong size");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef cells_methods[] = {
    {"lengths", cells_lengths, METH_VARARGS,
     "lengths(cells, present, lengths) -> int\n\n"
     "Write each cell's presence (bool) and number of items (intp) into the two arrays;\n"
     "return the total, or -1 when a cell is not None, a float NaN, a list, tuple, set,\n"
     "frozenset or 1-d object array."},
    {"fill", cells_fill, METH_VARARGS,
     "fill(cells, flat) -> None\n\n"
     "Write every item of the present cells, in order, into the object array flat (of the\n"
     "size lengths() returned)."},
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
    PyObject *all = Py_BuildValue("[ss]", "fill", "lengths");
    if (all == NULL || PyModule_AddObject(module, "__all__", all) < 0) {
        Py_XDECREF(all);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
