//! The page's two calls into the solver, for its Web Worker: the genre list, and one run
//! whose reports go to a JavaScript callback as they come. JSON strings both ways.

use wasm_bindgen::prelude::*;

/// The genre list ([`crate::catalogue`]) as JSON.
#[wasm_bindgen]
pub fn catalogue() -> String {
    crate::catalogue().to_string()
}

/// One run ([`crate::run`]): `request` and the answer are JSON; each report is passed to
/// `report` as JSON while the run goes on.
#[wasm_bindgen]
pub fn run(request: &str, report: &js_sys::Function) -> String {
    let request: serde_json::Value = match serde_json::from_str(request) {
        Ok(r) => r,
        Err(e) => {
            return serde_json::json!({ "ok": false, "error": format!("bad request: {e}") })
                .to_string()
        }
    };
    let mut send = |v: serde_json::Value| {
        // A callback that throws loses that report only; the run goes on.
        let _ = report.call1(&JsValue::NULL, &JsValue::from_str(&v.to_string()));
    };
    crate::run(&request, &mut send).to_string()
}
