// reported at line 2
function next() { return Promise.resolve().then(next); }
next();
