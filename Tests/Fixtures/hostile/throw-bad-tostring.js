// reported in the file
throw { toString() { throw new Error('no text'); } };
