"""The shell parser: what a command line runs, as far as a guard needs it. Guards, trust and the missing-script check use it; it imports nothing of forge's but :mod:`forge_hookd.text`."""
