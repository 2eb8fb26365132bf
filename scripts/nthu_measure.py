"""The old command line of `python -m apsp_kernels.study measure nthu` (apsp_kernels/study/seeds/nthu/measure.py).
Under `mpirun -np P python3 scripts/nthu_measure.py multi ...` every rank runs this file, hence the same main."""
import sys; from pathlib import Path; sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # noqa: E702
from apsp_kernels.study.seeds.nthu.measure import main  # noqa: E402
if __name__ == "__main__": sys.exit(main())  # noqa: E701
