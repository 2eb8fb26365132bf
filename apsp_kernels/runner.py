"""`python -m apsp_kernels.runner`: the report runner (apsp_kernels.study.report.runner) under the name that
committed docs and device logs use."""
from apsp_kernels.study.report.runner import main
if __name__ == "__main__":
    raise SystemExit(main())
