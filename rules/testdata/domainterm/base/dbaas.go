// Package db manages databases.
package db

// ServiceType is a kind of service.
type ServiceType string

// ServiceTypeDBaaS is the service type of managed databases.
const ServiceTypeDBaaS ServiceType = "dbaas"

// Backup is a backup of a database.
// Deprecated: Backup is a deprecated struct, as the backup endpoints are no longer supported in DBaaS V2.
// In DBaaS V2, databases can be backed up via database forking.
type Backup struct{}

// Restore restores a database: call RestoreDBaaSNow first.
func Restore() {}

// ForkDB forks a database.
func ForkDB() {}

// ForkDBOptions configure a fork.
type ForkDBOptions struct{}

// Clone clones a database; call ForkDB first.
func Clone() {}

// NewBackupPlan returns a plan.
func NewBackupPlan() {}

// Plan makes a plan: the BackupPlan rather than the base plan.
func Plan() {}

type backupPlan struct{}
