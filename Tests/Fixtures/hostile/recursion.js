// reported at line 2
function down(n) { return down(n + 1) + 1; }
down(0);
