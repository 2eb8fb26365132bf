"""The old command line of `python -m apsp_kernels.study measure iitkgp` (apsp_kernels/study/seeds/iitkgp/measure.py)."""
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # noqa: E702
from apsp_kernels.study.seeds.iitkgp.measure import main, table  # noqa: E402,F401
if __name__ == "__main__": sys.exit(main())  # noqa: E701
