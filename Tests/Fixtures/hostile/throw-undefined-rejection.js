// reported in the file
Promise.reject(undefined);
