"""fournines analysis: results folders (run.json, *.hlog, CSV time series) -> percentiles, plots,
reports, comparisons and the regression gate. Reads files only, never live processes."""
