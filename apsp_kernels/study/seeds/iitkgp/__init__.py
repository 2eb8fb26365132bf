"""iitkgp: see docs/layout.md."""
