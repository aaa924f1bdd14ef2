package appliance

import (
	"errors"
	"fmt"
	"net"
	"time"
)

// Config is the appliance's whole configuration. Every field has a flag and
// a HEARTH_* environment twin (see cmd/hearth and the README's table).
type Config struct {
	// DataDir holds the SQLite file, the identity key and model files.
	DataDir string
	// Addr is the HTTP listen address, HOST:PORT.
	Addr string
	// LogLevel is debug, info, warn or error.
	LogLevel string
	// LogFormat is text, json or auto (text on a terminal, JSON otherwise).
	LogFormat string
	// RateLimitBoost multiplies every per-key rate limit; 0 turns them off.
	RateLimitBoost float64
	// TokenTTL is how long an ID token from `hearth token` stays valid.
	TokenTTL time.Duration
	// MaxBodyBytes caps JSON request bodies.
	MaxBodyBytes int64
	// ReadConns is the size of the SQLite read pool.
	ReadConns int
	// ShutdownTimeout bounds a graceful stop.
	ShutdownTimeout time.Duration
}

// DefaultConfig is what `make run` serves with no configuration.
func DefaultConfig() Config {
	return Config{
		DataDir:         "./data",
		Addr:            "127.0.0.1:8080",
		LogLevel:        "info",
		LogFormat:       "auto",
		RateLimitBoost:  1,
		TokenTTL:        24 * time.Hour,
		MaxBodyBytes:    8 << 20,
		ReadConns:       4,
		ShutdownTimeout: 10 * time.Second,
	}
}

// Validate reports the first problem with c.
func (c Config) Validate() error {
	var errs []error
	if c.DataDir == "" {
		errs = append(errs, errors.New("data directory is required"))
	}
	if _, _, err := net.SplitHostPort(c.Addr); err != nil {
		errs = append(errs, fmt.Errorf("addr %q is not HOST:PORT: %w", c.Addr, err))
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("log level %q is not one of debug, info, warn, error", c.LogLevel))
	}
	switch c.LogFormat {
	case "auto", "text", "json":
	default:
		errs = append(errs, fmt.Errorf("log format %q is not one of auto, text, json", c.LogFormat))
	}
	if c.RateLimitBoost < 0 {
		errs = append(errs, fmt.Errorf("rate limit boost %v is negative", c.RateLimitBoost))
	}
	if c.TokenTTL <= 0 {
		errs = append(errs, fmt.Errorf("token ttl %v must be positive", c.TokenTTL))
	}
	if c.MaxBodyBytes < 1024 {
		errs = append(errs, fmt.Errorf("max body bytes %d is below 1024", c.MaxBodyBytes))
	}
	if c.ReadConns < 1 {
		errs = append(errs, fmt.Errorf("read conns %d must be at least 1", c.ReadConns))
	}
	return errors.Join(errs...)
}
