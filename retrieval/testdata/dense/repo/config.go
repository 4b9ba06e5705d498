package tinycache

import (
	"os"

	"gopkg.in/yaml.v3"
)

// Config is the YAML configuration file.
type Config struct {
	Listen        string `yaml:"listen"`
	SweepInterval string `yaml:"sweep_interval"`
	Origin        string `yaml:"origin"`
}

// Load reads the YAML configuration file at path.
func Load(path string) (Config, error) {
	var cfg Config
	data, err := os.ReadFile(path)
	if err != nil {
		return cfg, err
	}
	err = yaml.Unmarshal(data, &cfg)
	return cfg, err
}
