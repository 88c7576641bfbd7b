"""Every figure of the package (matplotlib, the optional ``meta`` extra): :mod:`.compare` for
``compare``'s results, :mod:`.meta` for the meta-evaluation experiments. Plot functions take
plain results and arrays; they import nothing above :mod:`ir_measures_pres.data`."""
