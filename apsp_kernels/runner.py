"""`python -m apsp_kernels.runner` as before issue 31 (run_all.sh, committed docs and device logs name it)."""
from apsp_kernels.study.report.runner import main
if __name__ == "__main__":
    raise SystemExit(main())
