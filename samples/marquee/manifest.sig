{"keyId": "fe812c12f3ab4ce6", "alg": "ed25519", "sig": "XHWt5vCAkuT28etriONGbt1/PZPt4vBDmu/C6exUCUSn4f3jB9XZH+CwoggYh29gDSWpocbUhrgCE9qx2/UjDQ=="}
