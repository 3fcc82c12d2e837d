//! A sweep's table as text, CSV and `--json`: the rows of [`SweepReport`] with their
//! evidence in words.

use crate::driver::sweep::SweepReport;

/// The sweep's JSON document (without the schema key): the report's fields, each row's
/// evidence as data in `established` and in words in `evidence`.
pub fn json(report: &SweepReport) -> serde_json::Value {
    let mut value = serde_json::to_value(report).unwrap_or(serde_json::Value::Null);
    if let Some(rows) = value["rows"].as_array_mut() {
        for (row, json) in report.rows.iter().zip(rows) {
            json["evidence"] = serde_json::Value::String(row.evidence.to_string());
        }
    }
    value
}

/// The rows as text: one line per instance (size, answer, how established, time).
pub fn text_table(report: &SweepReport) -> String {
    let mut out = format!(
        "{:<9} {:>7}  {:<9} {:>10}  {}\n",
        "size", "optimum", "status", "time", "how"
    );
    for row in &report.rows {
        let value = match (row.proven, row.value, row.bound) {
            (true, Some(v), _) => v.to_string(),
            (false, v, b) => format!(
                "{}..{}",
                v.map_or("?".into(), |v| v.to_string()),
                b.map_or("?".into(), |b| b.to_string())
            ),
            (true, None, _) => "-".into(),
        };
        out.push_str(&format!(
            "{:<9} {:>7}  {:<9} {:>8.3} s  {}\n",
            row.name(),
            value,
            row.status,
            row.seconds,
            row.evidence
        ));
    }
    out
}

/// The rows as CSV with a header line (`width,height,status,proven,value,bound,backend,
/// seconds,evidence`); shards' CSV files concatenate into the whole (drop the repeated
/// headers, sort by the first two columns).
pub fn csv(report: &SweepReport) -> String {
    let mut out = String::from("width,height,status,proven,value,bound,backend,seconds,evidence\n");
    let opt = |v: Option<usize>| v.map_or(String::new(), |v| v.to_string());
    for row in &report.rows {
        out.push_str(&format!(
            "{},{},{},{},{},{},{},{:.3},\"{}\"\n",
            row.width,
            row.height,
            row.status,
            row.proven,
            opt(row.value),
            opt(row.bound),
            row.backend,
            row.seconds,
            row.evidence.to_string().replace('"', "\"\"")
        ));
    }
    out
}
