{"keyId": "fe812c12f3ab4ce6", "alg": "ed25519", "sig": "5n90qR505FJMLa9ImT81S7lWryQ3VIUa/SaQmueAx42RSoSBJsCPVX2k3EGiiwjalNvD/qsfzFZyExYzrHxPAw=="}
