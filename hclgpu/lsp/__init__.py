"""`hclgpu lsp`: a language server for Nomad job files (pygls, stdio).

Only this package imports pygls and lsprotocol; the command line never pays for them. The
server keeps one :class:`~hclgpu.lsp.analysis.Analysis` per open document (the same compile
as ``hclgpu check``), published as diagnostics after each change (debounced, newest version
only), and answers hover, completion, formatting, symbols, definitions, references and quick
fixes from it. Positions are converted between hclgpu's code-point offsets and LSP's UTF-16
columns in :mod:`~hclgpu.lsp.positions`.
"""
