-- Drives `hclgpu lsp` from a headless Neovim (0.7 and later), as a user would: open a job,
-- type a typo and wait for its diagnostic, complete `${device.attr.mem`, apply the typo's
-- quick fix. Writes what it saw as JSON to $HCLGPU_NVIM_OUT; every wait is bounded.
local out_path = os.getenv("HCLGPU_NVIM_OUT")
local job_path = os.getenv("HCLGPU_NVIM_JOB")
local server = os.getenv("HCLGPU_NVIM_SERVER")
local result = {}

local function finish()
  local file = io.open(out_path, "w")
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd("qall!")
end

local function find_line(bufnr, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line:find(needle, 1, true) then
      return i - 1, line
    end
  end
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(job_path))
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "hclgpu",
    cmd = { server, "lsp" },
    root_dir = vim.fn.fnamemodify(job_path, ":h"),
  })
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  result.started = vim.wait(10000, function() return client.initialized end, 20)

  -- a typo: `count` becomes `cuont`, and its diagnostic arrives
  local row, line = find_line(bufnr, "count = 1")
  vim.api.nvim_buf_set_lines(bufnr, row, row + 1, false, { (line:gsub("count", "cuont")) })
  local typo
  result.diagnosed = vim.wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.lnum == row and d.code == "HG101" then
        typo = d
        return true
      end
    end
    return false
  end, 20)
  result.typo_code = typo and typo.code
  result.typo_message = typo and typo.message

  -- completion of `${device.attr.mem`, applied as Neovim applies a completion's textEdit
  local at, target = find_line(bufnr, "${device.attr.memory}")
  local prefix = target:gsub("%${device%.attr%.memory}\"", "${device.attr.mem")
  vim.api.nvim_buf_set_lines(bufnr, at, at + 1, false, { prefix })
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = at, character = #prefix } }
  local answers = vim.lsp.buf_request_sync(bufnr, "textDocument/completion", params, 10000) or {}
  local chosen
  for _, answer in pairs(answers) do
    local items = answer.result and (answer.result.items or answer.result) or {}
    for _, item in ipairs(items) do
      if item.label == "${device.attr.memory}" then
        chosen = item
      end
    end
  end
  if chosen then
    local edit = chosen.textEdit
    if edit and edit.insert then
      edit = { range = edit.insert, newText = edit.newText }
    end
    if edit then
      vim.lsp.util.apply_text_edits({ edit }, bufnr, "utf-16")
    else
      vim.api.nvim_buf_set_text(bufnr, at, #prefix, at, #prefix, { chosen.insertText or chosen.label })
    end
    if chosen.additionalTextEdits then
      vim.lsp.util.apply_text_edits(chosen.additionalTextEdits, bufnr, "utf-16")
    end
  end
  result.completed = vim.api.nvim_buf_get_lines(bufnr, at, at + 1, false)[1]

  -- the quick fix of the typo
  vim.wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.lnum == row and d.code == "HG101" then
        typo = d
        return true
      end
    end
    return false
  end, 20)
  local range = {
    start = { line = typo.lnum, character = typo.col },
    ["end"] = { line = typo.end_lnum, character = typo.end_col },
  }
  local context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(bufnr, row) }
  local action_params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = range, context = context }
  local actions = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", action_params, 10000) or {}
  for _, answer in pairs(actions) do
    for _, action in ipairs(answer.result or {}) do
      if action.edit and not result.fix_title then
        result.fix_title = action.title
        vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
      end
    end
  end
  result.fixed = vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1]
  vim.lsp.stop_client(client_id)
end)
if not ok then
  result.error = tostring(err)
end
finish()
