;;; drive.el --- drive `hclgpu lsp' through eglot as a user would  -*- lexical-binding: t -*-
;;
;; Run by tests/test_emacs.py in `emacs --batch' with the README's Emacs recipe: opens a job
;; named `job.hcl' (found by its content) with a typo, waits for the typo's diagnostic,
;; completes `${device.attr.pci' by the item's textEdit, applies the quick fix, and notes the
;; mode a Terraform `.hcl' file gets.  What it saw goes to $HCLGPU_EMACS_OUT as JSON.

(require 'package)
(package-initialize)
(require 'json)
(load-file (getenv "HCLGPU_EMACS_RECIPE"))
(require 'eglot)
(setq exec-path (cons (getenv "HCLGPU_EMACS_BIN") exec-path))
(setenv "PATH" (concat (getenv "HCLGPU_EMACS_BIN") ":" (getenv "PATH")))

(defvar seen nil "What the editor saw, as an alist written out at the end.")

(defun note (key value) (push (cons key value) seen))

(defun wait-for (predicate seconds)
  "Run the event loop until PREDICATE holds or SECONDS pass; what PREDICATE gave."
  (let ((deadline (+ (float-time) seconds)) (result nil))
    (while (and (< (float-time) deadline) (not (setq result (funcall predicate))))
      (accept-process-output nil 0.05))
    result))

(defun line-text () (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(defun drive (directory)
  (with-current-buffer (find-file (expand-file-name "main.hcl" directory))
    (note 'terraform_mode (symbol-name major-mode)))
  (with-current-buffer (find-file (expand-file-name "job.hcl" directory))
    (note 'job_mode (symbol-name major-mode))
    (run-hooks 'post-command-hook)  ; eglot-ensure connects from the command loop
    (note 'server (and (wait-for #'eglot-current-server 20) t))
    (goto-char (point-min))
    (search-forward "cuont")
    (let ((typo (wait-for (lambda () (flymake-diagnostics (line-beginning-position) (line-end-position))) 20)))
      (note 'typo (and typo (flymake-diagnostic-text (car typo)))))
    ;; complete `${device.attr.pci' into the device target, as a unique candidate completes
    (goto-char (point-min))
    (search-forward "${device.attr.memory}")
    (delete-region (- (point) (length "memory}")) (point))
    (insert "pci")
    (completion-at-point)
    (note 'completed (line-text))
    ;; the quick fix of the typo's diagnostic
    (goto-char (point-min))
    (search-forward "cuont")
    (let ((actions (wait-for (lambda () (eglot-code-actions (line-beginning-position) (line-end-position))) 20)))
      (note 'fix_title (plist-get (car actions) :title))
      (when actions (eglot--apply-workspace-edit (plist-get (car actions) :edit))))
    (note 'fixed (line-text))))

(condition-case err
    (drive (getenv "HCLGPU_EMACS_DIR"))
  (error (note 'error (error-message-string err))))
(with-temp-file (getenv "HCLGPU_EMACS_OUT") (insert (json-encode seen)))
(kill-emacs 0)
