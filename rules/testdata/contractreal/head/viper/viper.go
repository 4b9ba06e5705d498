// Package viper models github.com/spf13/viper's ReadInConfig (v1.21.0):
// the errors a caller must check arrive through calls deeper than the
// rule's trace.
package viper

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
)

// ErrNoConfigType is returned for an empty configuration type.
var ErrNoConfigType = errors.New("viper: no config type")

// SupportedExts are the configuration file extensions Viper reads.
var SupportedExts = []string{"json"}

// UnsupportedConfigError denotes encountering an unsupported
// configuration filetype.
type UnsupportedConfigError string

func (str UnsupportedConfigError) Error() string {
	return "Unsupported Config Type " + string(str)
}

// ConfigFileNotFoundError denotes failing to find configuration file.
type ConfigFileNotFoundError struct {
	name, locations string
}

func (fnfe ConfigFileNotFoundError) Error() string {
	return "Config File " + fnfe.name + " Not Found in " + fnfe.locations
}

// ConfigParseError denotes failing to parse configuration file.
type ConfigParseError struct {
	err error
}

func (pe ConfigParseError) Error() string { return "While parsing config: " + pe.err.Error() }

// Unwrap returns the wrapped error.
func (pe ConfigParseError) Unwrap() error { return pe.err }

// Viper is a prioritized configuration registry.
type Viper struct {
	configFile  string
	configName  string
	configType  string
	configPaths []string
	config      map[string]any
}

var v = New()

// New returns an initialized Viper instance.
func New() *Viper { return &Viper{configName: "config"} }

// ReadInConfig will discover and load the configuration file from disk
// and key/value stores, searching in one of the defined paths.
func ReadInConfig() error { return v.ReadInConfig() }

func (v *Viper) ReadInConfig() error {
	filename, err := v.getConfigFile()
	if err != nil {
		return err
	}
	if !slices.Contains(SupportedExts, v.getConfigType()) {
		return UnsupportedConfigError(v.getConfigType())
	}
	file, err := os.ReadFile(filename)
	if err != nil {
		return err
	}
	config := make(map[string]any)
	err = v.unmarshalReader(file, config)
	if err != nil {
		return err
	}
	v.config = config
	return nil
}

// SetConfigType sets the type of the configuration file.
func SetConfigType(in string) error {
	if in == "" {
		return ErrNoConfigType
	}
	if !slices.Contains(SupportedExts, in) {
		return UnsupportedConfigError(in)
	}
	v.configType = in
	return nil
}

// Unmarshal decodes a configuration into a map.
func Unmarshal(b []byte) (map[string]any, error) { return v.decode(b) }

func (v *Viper) decode(b []byte) (map[string]any, error) {
	c := map[string]any{}
	if err := v.unmarshalReader(b, c); err != nil {
		return nil, err
	}
	return c, nil
}

func (v *Viper) unmarshalReader(b []byte, c map[string]any) error {
	if err := json.Unmarshal(b, &c); err != nil {
		return ConfigParseError{err}
	}
	return nil
}

func (v *Viper) getConfigType() string {
	if v.configType != "" {
		return v.configType
	}
	return filepath.Ext(v.configFile)
}

func (v *Viper) getConfigFile() (string, error) {
	if v.configFile == "" {
		cf, err := v.findConfigFile()
		if err != nil {
			return "", err
		}
		v.configFile = cf
	}
	return v.configFile, nil
}

func (v *Viper) findConfigFile() (string, error) {
	return v.findConfigFileOld()
}

func (v *Viper) findConfigFileOld() (string, error) {
	for _, cp := range v.configPaths {
		file := filepath.Join(cp, v.configName+".json")
		if _, err := os.Stat(file); err == nil {
			return file, nil
		}
	}
	return "", ConfigFileNotFoundError{v.configName, filepath.Join(v.configPaths...)}
}
