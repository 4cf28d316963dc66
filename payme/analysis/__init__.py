"""Analysis: bot games simulated into pandas frames, and the tables and plots made of them.

* :mod:`payme.analysis.simulate` — :func:`~payme.analysis.simulate.simulate` (also
  ``payme.simulate``): many seeded games on every core or on a Dask cluster;
* :mod:`payme.analysis.stats` — tables and matplotlib figures for the Analysis page;
* :mod:`payme.analysis.progress` — progress bars and callbacks;
* :mod:`payme.analysis.cli` — the ``payme simulate`` command.

Importing this package imports nothing heavy: pandas, matplotlib, tqdm and Dask are
loaded by the functions that use them.

>>> from payme.analysis.simulate import game_seed
>>> game_seed(7, 0) == game_seed(7, 0) != game_seed(8, 0)   # game 0 of seed 7, always
True
"""
