"""The dashboard's views (./fournines ui): HTML pages and chart data made from results folders, files
only; the server that routes to them is scenarios/fournines/ui."""
