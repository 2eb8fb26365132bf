"""The result of a multi-GPU solve on the host, written by every rank at once: the coordinating process makes one
shared-memory block of the result's shape, each rank attaches to it by name and copies its own rows in.  Nothing
of the n x n result goes through a pipe (a 65,536-vertex int32 result is 17 GB: pickling it through rank 0
would take longer than the solve), and no rank gathers another's rows.  One host only; under MPI across hosts
the rows stay on their devices (the caller checksums them instead)."""
from __future__ import annotations

from dataclasses import dataclass
from multiprocessing import shared_memory

import numpy as np


@dataclass(frozen=True)
class Handle:
    """What a rank needs to find the block: picklable, a few bytes."""
    name: str
    shape: tuple
    dtype: str


class SharedResult:
    """The coordinator's side: ``array`` is the result (a numpy array over the shared block, owned by this object:
    copy what you keep before :meth:`close`, since a view read after it reads unmapped memory)."""

    def __init__(self, shape, dtype=np.int32):
        dt = np.dtype(dtype)
        self.shape = tuple(int(s) for s in shape)
        nbytes = max(int(np.prod(self.shape)) * dt.itemsize, 1)
        self._shm = shared_memory.SharedMemory(create=True, size=nbytes)
        self.array = np.ndarray(self.shape, dt, buffer=self._shm.buf)
        self.handle = Handle(self._shm.name, self.shape, dt.str)

    def detach(self):
        """The result as an ordinary numpy array (one copy), the shared block released."""
        out = np.array(self.array, copy=True)
        self.close()
        return out

    def close(self):
        if self._shm is not None:
            self.array = None
            self._shm.close()
            self._shm.unlink()
            self._shm = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Attached:
    """A rank's side: ``rows(a, b)`` is a writable numpy view of result rows a .. b-1."""

    def __init__(self, handle: Handle):
        # The coordinator owns the block.  Python 3.13 on: track=False keeps a rank's attachment out of the resource
        # tracker.  Before it, attaching registers the name again with the tracker, which ranks started by
        # multiprocessing's spawn share with the coordinator: a set, so that is harmless, while unregistering here
        # would remove the coordinator's own entry (its unlink then ends in the tracker's KeyError).
        try:
            self._shm = shared_memory.SharedMemory(name=handle.name, track=False)
        except TypeError:                      # Python < 3.13 has no track=
            self._shm = shared_memory.SharedMemory(name=handle.name)
        self._view(handle)

    def _view(self, handle):
        self.array = np.ndarray(handle.shape, np.dtype(handle.dtype), buffer=self._shm.buf)

    def rows(self, a, b):
        return self.array[a:b]

    def close(self):
        self.array = None
        self._shm.close()
