// reported in the file
throw null;
