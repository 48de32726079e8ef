"""Every write of the dealers' room: shifts (DLR-1) in `shifts`, the rotation (DLR-2) in `rotation`."""
