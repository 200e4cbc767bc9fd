"""The scenario spec: what a scenario file may say (the schema, the query registry, overrides) and
what this build can run of it."""
