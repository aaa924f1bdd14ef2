//go:build !unix

package main

import "errors"

const lockFile = "serve.lock"

var errDataInUse = errors.New("a running hearth serve is using this data folder")

// lockData cannot tell a running appliance here; stop the service before
// restoring a backup.
func lockData(dir string) (release func(), err error) { return func() {}, nil }
