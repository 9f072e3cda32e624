"""The viewer cap as an admission: a dashboard page takes a place before its kernel starts.

A page's request takes a place (`Admission.take`) before Voila starts a kernel for it or hands
it a preheated one; once the kernel is known the place is tied to it (`bind`) and comes back
when that kernel is gone (the page closed, or the culler freed a kernel no page connected to).
A request that ends without a kernel (an error, a redirect) gives its place back when it ends
(`settle`). Every place thus ends in one give-back: either its request ends unbound, or its
kernel leaves the kernel manager. (A client that leaves early does not stop Voila from starting
its kernel: that place is held until the culler frees the kernel.) Tornado runs every request
on one event loop and `take` never waits, so concurrent requests cannot pass the cap together.
No Voila here: `nessus.voila_app` uses it.

>>> alive = {"k1"}
>>> admission = Admission(2)
>>> a, b = admission.take(alive), admission.take(alive)
>>> admission.take(alive) is None
True
>>> admission.bind(a, "k1"); admission.settle(a); admission.settle(b)
>>> admission.taken(alive), admission.starting()
(1, 0)
>>> admission.taken(set())  # k1 shut down: its place is back
0
"""

from __future__ import annotations

from collections.abc import Container


class Place:
    """One viewer's place: starting (no kernel yet) or held by a kernel."""

    __slots__ = ()


class Admission:
    """Up to `cap` places, each taken by a page's request and given back exactly once."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._starting: set[Place] = set()
        self._held: dict[Place, str] = {}

    def take(self, alive: Container[str]) -> Place | None:
        """A new place, or None when all `cap` are taken (counted after giving back the places
        of kernels no longer `alive`)."""
        if self.taken(alive) >= self.cap:
            return None
        place = Place()
        self._starting.add(place)
        return place

    def bind(self, place: Place, kernel_id: str) -> None:
        """Tie a starting place to its page's kernel: it is given back once that kernel is gone."""
        if place in self._starting:
            self._starting.remove(place)
            self._held[place] = kernel_id

    def settle(self, place: Place) -> None:
        """The place's request has ended: given back if it never got a kernel."""
        self._starting.discard(place)

    def taken(self, alive: Container[str]) -> int:
        """How many places are taken, once those held by kernels no longer `alive` are given back."""
        for place, kernel_id in list(self._held.items()):
            if kernel_id not in alive:
                del self._held[place]
        return len(self._starting) + len(self._held)

    def starting(self) -> int:
        """How many taken places wait for their kernel (it is starting, or being handed out)."""
        return len(self._starting)
