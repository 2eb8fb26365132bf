"""The elimination tree of a symmetric pattern under a given order, its postorder, column counts and supernodes
(numba): what turns a flat fill-reducing permutation (METIS's nested dissection) into the supernode tree the
symbolic and numeric phases work on.

Facts used (Liu 1990, "The role of elimination trees in sparse factorization", SIAM J. Matrix Anal. Appl. 11):
the parent of vertex j in the elimination tree is the smallest i > j with L(i, j) != 0; it is found from the
pattern of A alone, walking from each earlier neighbour k < j up to the root of its current subtree (with path
compression, almost linear in the edges).  Renumbering by a postorder of the tree changes no fill, and then every
subtree is the contiguous range from its first descendant to its root.  The tree has one root per connected
component.  Column counts (the entries of each column of L, diagonal included) come from the row subtrees: row i
of L is the union of the tree paths from i's earlier neighbours up to i, so counting, per row, +1 at each leaf of
that subtree, -1 at the lowest common ancestor of consecutive leaves and -1 above i, and summing over subtrees
gives every column's count (Gilbert, Ng and Peyton 1994).  A fundamental supernode is a chain j -> j + 1 in which
j is j + 1's only child and column j is column j + 1 plus its diagonal: its columns share one structure, so one
dense block holds them without a single extra entry."""
from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def elimination_tree(indptr, indices, perm, iperm):
    """parent[j] (-1 at a root) of new vertex j, for the symmetric pattern (indptr, indices) in the original
    numbering and the order ``perm[new] = old`` (``iperm`` its inverse)."""
    n = perm.size
    parent = np.full(n, -1, np.int64)
    anc = np.full(n, -1, np.int64)            # a shortcut towards the root of the subtree built so far
    for j in range(n):
        u = perm[j]
        for e in range(indptr[u], indptr[u + 1]):
            r = iperm[indices[e]]
            if r >= j:
                continue
            while anc[r] != -1 and anc[r] != j:     # climb to the subtree's root, pointing the path at j
                nxt = anc[r]
                anc[r] = j
                r = nxt
            if anc[r] == -1:                         # a root not yet joined: j becomes its parent
                anc[r] = j
                parent[r] = j
    return parent


@njit(cache=True)
def postorder(parent):
    """post[k]: the vertex visited k-th by a depth-first postorder of the forest, children in ascending order,
    roots in ascending order (a nested-dissection order is nearly a postorder already: this keeps it so)."""
    n = parent.size
    head = np.full(n, -1, np.int64)           # children lists: head[p], then nxt[c]
    nxt = np.full(n, -1, np.int64)
    for j in range(n - 1, -1, -1):            # pushed in descending order, so each list ascends
        p = parent[j]
        if p >= 0:
            nxt[j] = head[p]
            head[p] = j
    post = np.empty(n, np.int64)
    stack = np.empty(n, np.int64)
    k = 0
    for root in range(n):
        if parent[root] >= 0:
            continue
        top = 0
        stack[0] = root
        while top >= 0:
            v = stack[top]
            c = head[v]
            if c == -1:                       # every child done (or none): emit v
                post[k] = v
                k += 1
                top -= 1
            else:                             # descend into the next child, taking it off v's list
                head[v] = nxt[c]
                top += 1
                stack[top] = c
    return post


@njit(cache=True)
def first_descendants(parent):
    """fd[j]: the smallest vertex of j's subtree, for a postordered tree (parent[j] > j): subtree = fd[j]..j."""
    n = parent.size
    fd = np.arange(n)
    for j in range(n):
        p = parent[j]
        if p >= 0 and fd[j] < fd[p]:
            fd[p] = fd[j]
    return fd


@njit(cache=True)
def column_counts(indptr, indices, perm, iperm, parent, fd):
    """Entries of each column of L, diagonal included, for a postordered tree (see the module docstring)."""
    n = parent.size
    delta = np.zeros(n, np.int64)
    for j in range(n):
        if fd[j] == j:                        # a leaf of the tree: its own row's subtree is itself
            delta[j] = 1
    maxfirst = np.full(n, -1, np.int64)       # per row i: the largest fd of a leaf found so far
    prevleaf = np.full(n, -1, np.int64)       # per row i: the last leaf found
    ancestor = np.arange(n)                   # union-find over finished vertices, for common ancestors
    for j in range(n):
        if parent[j] >= 0:
            delta[parent[j]] -= 1             # row j's subtree stops at j
        u = perm[j]
        for e in range(indptr[u], indptr[u + 1]):
            i = iperm[indices[e]]
            if i <= j or fd[j] <= maxfirst[i]:
                continue                      # not a leaf of row i's subtree: a descendant of j was one
            maxfirst[i] = fd[j]
            jprev = prevleaf[i]
            prevleaf[i] = j
            delta[j] += 1
            if jprev >= 0:                    # a later leaf: the paths meet at the common ancestor
                q = jprev
                while ancestor[q] != q:
                    q = ancestor[q]
                r = jprev
                while r != q:                 # path compression
                    nx = ancestor[r]
                    ancestor[r] = q
                    r = nx
                delta[q] -= 1
        if parent[j] >= 0:
            ancestor[j] = parent[j]
    count = delta
    for j in range(n):
        if parent[j] >= 0:
            count[parent[j]] += count[j]
    return count


@njit(cache=True)
def supernode_starts(parent, fd, count, leaf):
    """Where each supernode starts (a boolean per vertex of a postordered tree): fundamental supernodes, except
    that a largest subtree of at most ``leaf`` vertices is one supernode (a dense block, as a dissection's leaf
    region is)."""
    n = parent.size
    nchild = np.zeros(n, np.int64)
    for j in range(n):
        if parent[j] >= 0:
            nchild[parent[j]] += 1
    new = np.ones(n, np.bool_)
    for j in range(1, n):
        if parent[j - 1] == j and nchild[j] == 1 and count[j - 1] == count[j] + 1:
            new[j] = False
    for j in range(n):                        # subtrees of at most leaf vertices whose parent's is larger
        if j - fd[j] + 1 <= leaf and (parent[j] < 0 or parent[j] - fd[parent[j]] + 1 > leaf):
            new[fd[j]] = True
            new[fd[j] + 1:j + 1] = False
            if j + 1 < n:
                new[j + 1] = True
    return new
