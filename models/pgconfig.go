package models

import (
	"github.com/jackc/pgx/v5"
)

func pgxConfig(url string, opts OpenOptions) (*pgx.ConnConfig, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, err
	}
	if cfg.RuntimeParams == nil {
		cfg.RuntimeParams = map[string]string{}
	}
	// Timestamps are UTC wall-clock values in "timestamp without time zone".
	cfg.RuntimeParams["timezone"] = "UTC"
	if opts.ReadOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	return cfg, nil
}
