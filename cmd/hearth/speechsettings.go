package main

import (
	"path/filepath"

	"github.com/hearth-appliance/hearth/appliance"
	"github.com/hearth-appliance/hearth/appliance/providerkeys"
	"github.com/hearth-appliance/hearth/models"
)

// withProviderKeys fills the remote routes' keys the owner saved in the
// console (DATA/provider-keys.json) into cfg. A flag or environment
// variable wins over a saved key.
func withProviderKeys(cfg appliance.Config, keys *providerkeys.File) (appliance.Config, error) {
	saved, err := keys.Load()
	if err != nil {
		return cfg, err
	}
	for _, v := range remoteVendors {
		if field := v.key.field(&cfg); *field == "" {
			*field = saved[v.name]
		}
	}
	return cfg, nil
}

// newModelStore is DATA/models with the catalog and the mirror the owner
// configured (--models-url, --models-catalog), for pulls from the console.
func newModelStore(cfg appliance.Config, dataDir string) (*models.Store, error) {
	st := &models.Store{Dir: filepath.Join(dataDir, "models"), BaseURL: cfg.ModelsURL, Catalog: models.Catalog}
	if cfg.ModelsCatalog != "" {
		extra, err := models.LoadCatalog(cfg.ModelsCatalog)
		if err != nil {
			return nil, usageErr("%v", err)
		}
		st.Catalog = models.Merge(st.Catalog, extra)
	}
	return st, nil
}
