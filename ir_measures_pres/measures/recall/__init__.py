"""The recall-oriented family: PRES and normalised recall R_norm (Magdy and Jones, SIGIR 2010;
Rocchio 1966 as Salton and McGill define it) and Bpref-10 (Buckley and Voorhees, SIGIR 2004), each
a measure class and its numpy kernel; no reference tool beyond the papers' worked examples."""
