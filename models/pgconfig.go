package models

import (
	"strconv"

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
	connect, statement := opts.timeouts()
	cfg.ConnectTimeout = connect
	if statement > 0 {
		ms := strconv.FormatInt(statement.Milliseconds(), 10)
		for _, name := range []string{"statement_timeout", "lock_timeout"} {
			if _, given := cfg.RuntimeParams[name]; !given { // the URL's own value wins
				cfg.RuntimeParams[name] = ms
			}
		}
	}
	if opts.ReadOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	return cfg, nil
}
