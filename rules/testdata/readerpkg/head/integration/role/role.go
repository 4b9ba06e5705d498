package role

// Admin is the role of administrators.
const Admin = "admin"
