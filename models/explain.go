package models

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"
)

// unreachable reports whether err is a connection that could not be made
// at all (no such host, refused, no route): not a download cut off, so
// retrying at once cannot help.
func unreachable(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return dns.IsNotFound
	}
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH)
}

// Explain says why a pull of m failed in one sentence for the owner: what
// happened and what to do, instead of the dialer's words. A box offline
// is told to use a mirror; a mirror that does not answer, to check it.
func (s *Store) Explain(m Model, err error) string {
	if err == nil {
		return ""
	}
	var dns *net.DNSError
	mirror := s.mirror()
	switch {
	case errors.Is(err, context.Canceled):
		return "The download stopped because the appliance is shutting down: pull it again."
	case unreachable(err) && mirror == "":
		return "No internet connection: pull from a mirror with --models-url."
	case unreachable(err):
		return fmt.Sprintf("The mirror %s cannot be reached: check --models-url.", host(mirror))
	case errors.As(err, &dns) || errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("%s did not answer in time: try again, or pull from a mirror with --models-url.", host(s.source(m)))
	case errors.Is(err, syscall.ENOSPC):
		return "The data folder's disk is full: free some space and pull it again."
	case errors.Is(err, errPermanent):
		return fmt.Sprintf("%s has no such file (%s): check --models-url.", host(s.source(m)), lastPart(err))
	case errors.Is(err, errChecksum):
		return "The download did not match the catalog's checksum and was removed: pull it again."
	}
	return "The download failed (" + lastPart(err) + "): pull it again to resume."
}

// mirror is --models-url when it is not the default, else "".
func (s *Store) mirror() string {
	if base := strings.TrimRight(s.BaseURL, "/"); base != "" && base != DefaultBaseURL {
		return base
	}
	return ""
}

func host(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Host
	}
	return raw
}

// lastPart is the innermost words of a wrapped error ("404 Not Found").
func lastPart(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}
