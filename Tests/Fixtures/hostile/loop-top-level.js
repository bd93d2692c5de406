// reported at line 1 (the engine names the line where the stopped code begins: here the module itself)
while (true) {}
