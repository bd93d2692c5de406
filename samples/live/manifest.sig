{"keyId": "fe812c12f3ab4ce6", "alg": "ed25519", "sig": "/a4rEd711yZIPlSWsyO4SbFQkUUTe163mgXJdwwoOWWsVq/h9pxRa061m+dI+Lj0NUdYf0XXRVE7PmUL6MrqAw=="}
