package main

import (
	"path/filepath"
	"testing"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/providerkeys"
)

// TestRemoteVendorKeys runs each remote vendor's key through the three
// ways it arrives: its flag, its environment twin, and the console's saved
// provider key, which fills the key only when neither is given.
func TestRemoteVendorKeys(t *testing.T) {
	for _, v := range remoteVendors {
		t.Run(v.name, func(t *testing.T) {
			keys := &providerkeys.File{Path: filepath.Join(t.TempDir(), "provider-keys.json"), Providers: providerKeyNames()}
			if err := keys.Set(v.name, "saved-"+v.name); err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				name string
				env  string
				args []string
				want string
			}{
				{"saved", "", nil, "saved-" + v.name},
				{"env", "from-env", nil, "from-env"},
				{"flag", "from-env", []string{"--" + v.key.name, "from-flag"}, "from-flag"},
			} {
				t.Run(tc.name, func(t *testing.T) {
					if tc.env != "" {
						t.Setenv(envName(v.key.name), tc.env)
					}
					var cfg appliance.Config
					fs := newFlagSet("serve", nil)
					remoteVendorFlags(fs, &cfg)
					if err := parseFlags(fs, tc.args); err != nil {
						t.Fatal(err)
					}
					cfg, err := withProviderKeys(cfg, keys)
					if err != nil {
						t.Fatal(err)
					}
					if got := *v.key.field(&cfg); got != tc.want {
						t.Errorf("%s = %q, want %q", v.key.name, got, tc.want)
					}
				})
			}
		})
	}
}
