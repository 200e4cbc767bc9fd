"""./fournines ui: the dashboard's web server. The pages are the analysis package's
(fournines_analysis/dashboard); this package routes to them, serves the scripts and guards the address."""
