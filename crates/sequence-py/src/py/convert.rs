//! JSON values to and from Python objects, and records given as text, a
//! dict or a path.

use super::errors::usage;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Deepest nesting accepted from Python (records are shallow).
const MAX_DEPTH: usize = 64;

/// A JSON value as a Python object (dicts keep their order).
pub(crate) fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let l = PyList::empty(py);
            for x in a {
                l.append(json_to_py(py, x)?)?;
            }
            l.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// A Python object made of dicts (string keys), lists, tuples, strings,
/// numbers, booleans and `None` as a JSON value.
pub(crate) fn py_to_json(o: &Bound<'_, PyAny>) -> PyResult<Value> {
    to_json(o, 0)
}

fn to_json(o: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if depth > MAX_DEPTH {
        return Err(usage(
            "json.depth",
            "nested too deeply for a record or a move",
        ));
    }
    if o.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = o.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if o.is_instance_of::<PyInt>() {
        if let Ok(i) = o.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = o.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(usage("json.number", "an integer too large for JSON"));
    }
    if let Ok(f) = o.cast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| usage("json.number", "NaN and infinities are not JSON"));
    }
    if let Ok(s) = o.cast::<PyString>() {
        return Ok(Value::String(s.to_cow()?.into_owned()));
    }
    if let Ok(d) = o.cast::<PyDict>() {
        let mut m = Map::new();
        for (k, v) in d.iter() {
            let Ok(k) = k.cast::<PyString>() else {
                return Err(usage(
                    "json.key",
                    format!("dict keys must be strings, not {}", k.get_type().name()?),
                ));
            };
            m.insert(k.to_cow()?.into_owned(), to_json(&v, depth + 1)?);
        }
        return Ok(Value::Object(m));
    }
    // Lists and tuples alike become arrays.
    if o.is_instance_of::<PyList>() || o.is_instance_of::<PyTuple>() {
        return o
            .try_iter()?
            .map(|x| to_json(&x?, depth + 1))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    Err(usage(
        "json.type",
        format!(
            "{} is not JSON (use dicts, lists, strings, numbers, booleans, None)",
            o.get_type().name()?
        ),
    ))
}

/// A record given as JSON text (`str`), an already parsed dict, or a path
/// (`pathlib.Path`, any `os.PathLike`, or a `str` naming a file: text
/// that starts with `{` or `[` is always JSON), parsed strictly as
/// `sequence verify` does.
pub(crate) fn record_value(o: &Bound<'_, PyAny>) -> PyResult<Value> {
    if let Ok(s) = o.cast::<PyString>() {
        let text = s.to_cow()?;
        let t = text.trim_start();
        if t.starts_with('{') || t.starts_with('[') {
            return parse(&text);
        }
        let path = std::path::Path::new(text.as_ref());
        if path.is_file() {
            return read_record(path);
        }
        // Other JSON (refused as not a record), or a path that names no
        // file: say so.
        return parse(&text).or_else(|_| read_record(path));
    }
    if o.hasattr("__fspath__")? {
        let path: std::path::PathBuf = o.extract()?;
        return read_record(&path);
    }
    if let Ok(b) = o.cast::<PyBytes>() {
        return parse(std::str::from_utf8(b.as_bytes()).map_err(|_| not_utf8())?);
    }
    py_to_json(o)
}

/// The record in the file at `path`.
///
/// # Errors
/// `RecordError` (`record.unreadable`) naming the path when the file cannot
/// be read; the parse errors of [`record_value`] otherwise (bytes that
/// are not UTF-8 as [`not_utf8`]).
fn read_record(path: &std::path::Path) -> PyResult<Value> {
    let bytes = std::fs::read(path).map_err(|e| {
        crate::py::errors::fail(crate::dynamic::Failure {
            kind: crate::dynamic::FailureKind::Record,
            code: "record.unreadable".into(),
            // `sequence verify`'s message for the same file
            message: sequence_common::record::unreadable(path, &e),
            record: Some(Box::new(crate::dynamic::RecordDetail {
                exit_code: 2,
                index: None,
                entry: None,
                why: e.to_string(),
            })),
        })
    })?;
    parse(std::str::from_utf8(&bytes).map_err(|_| not_utf8())?)
}

/// `RecordError` for bytes that are not UTF-8: malformed (`exit_code` 2)
/// with `sequence verify`'s message; never read with replaced bytes.
fn not_utf8() -> PyErr {
    let e = sequence_common::record::MalformedRecord(sequence_common::record::NOT_UTF8.into());
    crate::py::errors::fail(crate::dynamic::Failure::from_replay(&e.into()))
}

use pyo3::types::PyBytes;

fn parse(text: &str) -> PyResult<Value> {
    crate::dynamic::read_record(text)
        .map(|(_, v)| v)
        .map_err(crate::py::errors::fail)
}
