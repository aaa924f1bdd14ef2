//go:build !unix

package main

const lockFile = "serve.lock"

// lockData cannot tell a running appliance here; stop the service before
// restoring a backup.
func lockData(dir string) (release func(), err error) { return func() {}, nil }
