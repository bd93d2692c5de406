{"keyId": "fe812c12f3ab4ce6", "alg": "ed25519", "sig": "RHyaA9l3F15KurhxLIykLa/17XQLr8ZiR7JB8m4ePjJalkHhn2YfkI/uYi0v7fHmuehqnR3VxwMB3O8FfpefBQ=="}
