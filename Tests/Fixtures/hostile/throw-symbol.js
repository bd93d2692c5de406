// reported at line 2
setTimeout(() => { throw Symbol('bare'); }, 1);
