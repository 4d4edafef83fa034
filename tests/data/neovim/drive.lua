-- Drives `hclgpu lsp` from a headless Neovim (0.7 and later), as a user would: open a job and
-- wait for its diagnostics, type a typo and wait for its diagnostic, complete
-- `"${device.attr.mem` by applying the chosen item as Neovim does, apply the typo's quick fix.
-- Writes what it saw as JSON to $HCLGPU_NVIM_OUT; every wait is bounded (WAIT_MS).
local out_path = os.getenv("HCLGPU_NVIM_OUT")
local job_path = os.getenv("HCLGPU_NVIM_JOB")
local server = os.getenv("HCLGPU_NVIM_SERVER")
local WAIT_MS = 10000
local WANTED = "${device.attr.memory}"
local result = { publishes = 0 }

local function finish()
  local file = io.open(out_path, "w")
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd("qall!")
end

-- The row (0-based) and text of the first line of the buffer that holds `needle`.
local function find_line(bufnr, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    if line:find(needle, 1, true) then
      return i - 1, line
    end
  end
  error("no line holds " .. needle)
end

local function line_at(bufnr, row)
  return vim.api.nvim_buf_get_lines(bufnr, row, row + 1, false)[1]
end

-- Starts the server for the buffer, counting the diagnostics it publishes.
local function start(bufnr)
  local publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
  local client_id = vim.lsp.start_client({
    name = "hclgpu",
    cmd = { server, "lsp" },
    root_dir = vim.fn.fnamemodify(job_path, ":h"),
    handlers = {
      ["textDocument/publishDiagnostics"] = function(err, params, ctx, config)
        result.publishes = result.publishes + 1
        return publish(err, params, ctx, config)
      end,
    },
  })
  vim.lsp.buf_attach_client(bufnr, client_id)
  local client = vim.lsp.get_client_by_id(client_id)
  result.started = vim.wait(WAIT_MS, function() return client.initialized end, 20)
  result.opened = vim.wait(WAIT_MS, function() return result.publishes > 0 end, 20)
  return client_id
end

-- The diagnostic with `code` on `row`, waiting for it.
local function diagnostic_on(bufnr, row, code)
  local found
  vim.wait(WAIT_MS, function()
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.lnum == row and d.code == code then
        found = d
        return true
      end
    end
    return false
  end, 20)
  return found
end

-- Types the typo `cuont` for `count`; the row and the diagnostic it gets.
local function type_typo(bufnr)
  local row, line = find_line(bufnr, "count = 1")
  vim.api.nvim_buf_set_lines(bufnr, row, row + 1, false, { (line:gsub("count", "cuont")) })
  local typo = diagnostic_on(bufnr, row, "HG101")
  result.diagnosed = typo ~= nil
  result.typo_code = typo and typo.code
  result.typo_message = typo and typo.message
  return row, typo
end

-- The first completion item that inserts WANTED (by label, textEdit or insertText).
local function first_wanted(answers)
  for _, answer in pairs(answers) do
    local items = answer.result and (answer.result.items or answer.result) or {}
    for _, item in ipairs(items) do
      local text = (item.textEdit and item.textEdit.newText) or item.insertText
      if item.label == WANTED or text == WANTED then
        return item
      end
    end
  end
end

-- Applies a completion item as Neovim's completion does: its textEdit (an InsertReplaceEdit's
-- insert range), else its insertText (or label) at the cursor; then its additionalTextEdits.
local function apply_item(bufnr, item, row, col)
  local edit = item.textEdit
  if edit and edit.insert then
    edit = { range = edit.insert, newText = edit.newText }
  end
  if edit then
    vim.lsp.util.apply_text_edits({ edit }, bufnr, "utf-16")
  else
    vim.api.nvim_buf_set_text(bufnr, row, col, row, col, { item.insertText or item.label })
  end
  if item.additionalTextEdits then
    vim.lsp.util.apply_text_edits(item.additionalTextEdits, bufnr, "utf-16")
  end
end

-- Types `"${device.attr.mem` where the sample has `"${device.attr.memory}"` and completes it.
local function complete_memory(bufnr)
  local row, line = find_line(bufnr, WANTED)
  local typed = line:gsub("%${device%.attr%.memory}\"", "${device.attr.mem")
  vim.api.nvim_buf_set_lines(bufnr, row, row + 1, false, { typed })
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = row, character = #typed },
  }
  local answers = vim.lsp.buf_request_sync(bufnr, "textDocument/completion", params, WAIT_MS) or {}
  local item = first_wanted(answers)
  result.completion_item = item and item.label
  if item then
    apply_item(bufnr, item, row, #typed)
  end
  result.completed = line_at(bufnr, row)
end

-- Asks for the code actions on the typo's diagnostic and applies the first one with an edit.
local function quick_fix(bufnr, row, typo)
  typo = diagnostic_on(bufnr, row, "HG101") or typo
  local range = {
    start = { line = typo.lnum, character = typo.col },
    ["end"] = { line = typo.end_lnum, character = typo.end_col },
  }
  local diagnostic = { range = range, severity = typo.severity, code = typo.code, message = typo.message }
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    range = range,
    context = { diagnostics = { diagnostic } },
  }
  local answers = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, WAIT_MS) or {}
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      if action.edit and not result.fix_title then
        result.fix_title = action.title
        vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
      end
    end
  end
  result.fixed = line_at(bufnr, row)
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(job_path))
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = start(bufnr)
  local row, typo = type_typo(bufnr)
  complete_memory(bufnr)
  if typo then
    quick_fix(bufnr, row, typo)
  end
  vim.lsp.stop_client(client_id)
end)
if not ok then
  result.error = tostring(err)
end
finish()
