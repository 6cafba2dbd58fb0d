"""Generic building blocks that know no study and no simulator: grids, stats, claims, tables."""
