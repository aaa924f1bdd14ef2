package appliance

import (
	"errors"
	"fmt"
	"net"
)

// validateTLS checks the HTTPS settings.
func (c Config) validateTLS() []error {
	var errs []error
	if c.TLSAddr != "" {
		if _, _, err := net.SplitHostPort(c.TLSAddr); err != nil {
			errs = append(errs, fmt.Errorf("tls addr %q is not HOST:PORT: %w", c.TLSAddr, err))
		}
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		errs = append(errs, errors.New("tls cert and tls key go together: give both or neither"))
	}
	if c.TLSCert != "" && c.TLSAddr == "" {
		errs = append(errs, errors.New("tls cert given without tls addr: say where to serve HTTPS"))
	}
	switch c.PlainHTTP {
	case "lan", "loopback":
	default:
		errs = append(errs, fmt.Errorf("plain http %q is not one of lan, loopback", c.PlainHTTP))
	}
	return errs
}
