// reported at line 2
function again() { queueMicrotask(again); }
again();
