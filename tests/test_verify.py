import numpy as np
import pytest

from apsp_kernels import Graph, NegativeCycleError, VerificationError, assert_equal_distances, fletcher64
from apsp_kernels import reference_apsp, INF


@pytest.mark.parametrize("data, value", [(b"abcde", 0xC8C6C527646362C6), (b"abcdef", 0xC8C72B276463C8C6),
                                         (b"abcdefgh", 0x312E2B28CCCAC8C6)])
def test_fletcher64_known_values(data, value):
    assert fletcher64(data) == value


def test_fletcher64_matrix_matches_bytes(rng):
    a = rng.integers(-2**31, 2**31 - 1, size=(57, 31)).astype(np.int32)
    assert fletcher64(a) == fletcher64(a.tobytes())
    b = a.copy()
    b[3, 4] ^= 1
    assert fletcher64(a) != fletcher64(b)


def test_fletcher64_combines_block_rows(rng):
    """The multi-GPU ranks checksum their own block rows; combined in row order they give the
    checksum of the whole matrix (uneven blocks, one-row blocks, a block of one word)."""
    from apsp_kernels.core.verify import fletcher64_combine
    for shape, cuts in (((57, 31), (0, 8, 9, 40, 57)), ((1, 1), (0, 1)), ((64, 64), (0, 32, 64))):
        a = rng.integers(-2**31, 2**31 - 1, size=shape).astype(np.int32)
        parts = [(fletcher64(a[c:d]), a[c:d].size) for c, d in zip(cuts, cuts[1:])]
        assert fletcher64_combine(parts) == fletcher64(a)
    assert fletcher64_combine([]) == fletcher64(np.zeros(0, np.int32))


@pytest.mark.parametrize("block_words", [1, 30, 31, 100, 57 * 31, 10**9])
def test_fletcher64_by_rows_is_the_whole_matrix_s_and_makes_one_block_at_a_time(rng, block_words):
    from apsp_kernels.core.verify import fletcher64_by_rows
    import weakref
    a = rng.integers(-2**31, 2**31 - 1, size=(57, 31)).astype(np.int32)
    asked, made = [], []

    class Block(np.ndarray):                    # numpy arrays take no weak references; a subclass does
        pass

    def rows_of(r0, r1):
        assert all(ref() is None for ref in made), "an earlier block is still alive"
        asked.append((r0, r1))
        b = a[r0:r1].copy().view(Block)
        made.append(weakref.ref(b))
        return b
    assert fletcher64_by_rows(57, 31, rows_of, block_words) == fletcher64(a)
    step = max(1, block_words // 31)
    assert asked == [(r, min(57, r + step)) for r in range(0, 57, step)]
    assert fletcher64_by_rows(0, 31, rows_of, block_words) == fletcher64(np.zeros(0, np.int32))


def test_fletcher64_of_float_distances_is_that_of_their_int32_form(rng):
    """A float result (scipy's form) is checksummed as the int32 matrix from_scipy makes of it, without making it:
    inf, -inf and nan as INF, negative distances, values truncated and wrapped as the conversion does."""
    from apsp_kernels.core.distances import from_scipy
    for shape in ((1, 1), (5, 7), (300, 301)):
        d = rng.integers(-2**31, 2**32, size=shape).astype(np.float64)
        for value, share in ((np.inf, 0.1), (-np.inf, 0.01), (np.nan, 0.01)):
            d[rng.random(shape) < share] = value
        d[0, 0] = 2.75
        for x in (d, d.astype(np.float32)):
            assert fletcher64(x) == fletcher64(from_scipy(x))
        e = d.copy()
        e[-1, -1] = 7.0 if d[-1, -1] != 7.0 else 8.0
        assert fletcher64(e) != fletcher64(d)


def test_compare_reports_first_difference():
    a = np.zeros((3, 3), np.int32)
    b = a.copy()
    b[1, 2] = 5
    with pytest.raises(VerificationError, match=r"\(i=1, j=2\): got 0, reference 5"):
        assert_equal_distances(a, b)


def test_reference_handles_zero_weights_and_unreachable():
    g = Graph.from_edges(3, [0, 1], [1, 2], [0, 0])
    d = reference_apsp(g)
    assert d[0, 2] == 0 and d[2, 0] == INF


def test_negative_cycle_is_detected():
    g = Graph.from_edges(3, [0, 1, 2], [1, 2, 0], [1, -3, 1])
    with pytest.raises(NegativeCycleError):
        reference_apsp(g)
    from apsp_kernels.algorithms import cpu
    for f in (cpu.fw_sequential, cpu.fw_blocked, cpu.fw_blocked_parallel, cpu.minplus_squaring):
        with pytest.raises(NegativeCycleError):
            f(g)


def test_block_rows_on_several_ranks_checksum_to_the_whole_matrix():
    from apsp_kernels.core.verify import block_rows_checksum, fletcher64
    d = np.arange(7 * 5, dtype=np.int32).reshape(7, 5) * 7919 - 3
    blocks = [(b, fletcher64(d[2 * b:2 * b + 2]), d[2 * b:2 * b + 2].size) for b in range(4)]
    ranks = [{"checksums": [blocks[2], blocks[0]]}, {"checksums": [blocks[3], blocks[1], blocks[1]]}, {}]
    assert block_rows_checksum(ranks) == fletcher64(d)              # any rank order, a block sent twice once
    swapped = [{"checksums": [(0, blocks[1][1], blocks[1][2]), (1, blocks[0][1], blocks[0][2]), blocks[2], blocks[3]]}]
    assert block_rows_checksum(swapped) != fletcher64(d)            # the row order matters
