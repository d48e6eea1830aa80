// The games' plain records: no database here, so that importers and the fuzz build can use
// them without GRDB.

