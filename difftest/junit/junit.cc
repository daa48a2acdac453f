#include "difftest/junit/junit.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <pugixml.hpp>
#include <sstream>

namespace a64jit::junit {

const char* OutcomeName(Outcome o) {
  switch (o) {
    case Outcome::kPass:
      return "pass";
    case Outcome::kFail:
      return "fail";
    case Outcome::kError:
      return "error";
    case Outcome::kSkip:
      return "skip";
    case Outcome::kXFail:
      return "xfail";
  }
  return "?";
}

const char* SkipReasonName(SkipReason r) {
  switch (r) {
    case SkipReason::kNone:
      return "";
    case SkipReason::kDisabled:
      return "disabled";
    case SkipReason::kSlow:
      return "slow";
    case SkipReason::kDevice:
      return "device";
    case SkipReason::kXFail:
      return "xfail";
    case SkipReason::kOther:
      return "other";
  }
  return "?";
}

namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool Contains(const std::string& haystack, const char* needle) {
  return haystack.find(needle) != std::string::npos;
}

std::string FirstLine(const char* text) {
  std::string s = text;
  const size_t nl = s.find('\n');
  if (nl != std::string::npos) s.resize(nl);
  if (s.size() > 300) s = s.substr(0, 300) + "...";
  return s;
}

// The message of a failure/error/skipped element: its message attribute, else its text.
std::string MessageOf(const pugi::xml_node& n) {
  const char* m = n.attribute("message").value();
  if (*m != '\0') return FirstLine(m);
  return FirstLine(n.text().get());
}

}  // namespace

std::string Excerpt(const std::string& text, size_t max_lines, size_t max_chars) {
  const size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  // The start of the last `max_lines` lines of text[0, end].
  size_t start = end + 1;
  for (size_t lines = 0; lines < max_lines && start > 0; lines++) {
    const size_t nl = start >= 2 ? text.rfind('\n', start - 2) : std::string::npos;
    start = nl == std::string::npos ? 0 : nl + 1;
  }
  std::string out = text.substr(start, end + 1 - start);
  if (out.size() > max_chars) out = out.substr(out.size() - max_chars);
  return start > 0 || out.size() < end + 1 ? "...\n" + out : out;
}

namespace {

// A failure's or error's body (pytest and unittest put the traceback there): its last
// lines, where the exception is, for the report.
std::string DetailOf(const pugi::xml_node& n) {
  const char* text = n.text().get();
  if (*text == '\0') return "";
  return Excerpt(text, 12, 1500);
}

bool StartsWithUpper(const std::string& s) {
  return !s.empty() && std::isupper(static_cast<unsigned char>(s[0]));
}

}  // namespace

SkipReason ClassifySkip(const std::string& type, const std::string& message) {
  const std::string t = Lower(type), m = Lower(message);
  if (Contains(t, "xfail") || m.rfind("xfail", 0) == 0 || Contains(m, "expected failure")) {
    return SkipReason::kXFail;
  }
  if (Contains(m, "disabled") || Contains(m, "disable ")) return SkipReason::kDisabled;
  if (Contains(m, "slow")) return SkipReason::kSlow;
  for (const char* device : {"cuda", "gpu", "device", "mps", "rocm", "xpu", "tpu", "cudnn"}) {
    if (Contains(m, device)) return SkipReason::kDevice;
  }
  return SkipReason::kOther;
}

std::string NormaliseKey(const std::string& file_attr, const std::string& classname,
                         const std::string& name_attr, const std::string& hint_module,
                         std::string* module_out, bool* subtest_out) {
  std::string name = name_attr, cls = classname;
  bool subtest = false;
  // unittest's id form "test_x (module.Class)", and subTest rows "test_x (i=1)" or
  // "test_x (module.Class) (i=1)" / "[msg]".
  for (size_t open = name.find(" ("); open != std::string::npos; open = name.find(" (")) {
    const size_t close = name.rfind(')');
    if (close == std::string::npos || close < open) break;
    const std::string inside = name.substr(open + 2, close - open - 2);
    const bool dotted_id =
        !inside.empty() &&
        inside.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.") ==
            std::string::npos;
    if (dotted_id) {
      // "module.Class" or, in 3.11+, "module.Class.test_x"
      std::string id = inside;
      const std::string tail = "." + name.substr(0, open);
      if (id.size() > tail.size() && id.compare(id.size() - tail.size(), tail.size(), tail) == 0) {
        id.resize(id.size() - tail.size());
      }
      cls = id;
      name = name.substr(0, open) + name.substr(close + 1);
    } else {
      subtest = true;  // the parameters of a subTest
      name = name.substr(0, open);
    }
  }
  const size_t bracket = name.find(" [");
  if (bracket != std::string::npos && !name.empty() && name.back() == ']') {
    subtest = true;  // subTest("message") rows
    name.resize(bracket);
  }
  if (subtest_out != nullptr) *subtest_out = subtest;
  std::string module, klass;
  const size_t dot = cls.rfind('.');
  const std::string last = dot == std::string::npos ? cls : cls.substr(dot + 1);
  if (StartsWithUpper(last)) {
    klass = last;
    module = dot == std::string::npos ? "" : cls.substr(0, dot);
  } else {
    module = cls;
  }
  if (!file_attr.empty()) {
    std::string f = file_attr;
    if (f.rfind("./", 0) == 0) f = f.substr(2);
    if (f.size() > 3 && f.compare(f.size() - 3, 3, ".py") == 0) f.resize(f.size() - 3);
    std::replace(f.begin(), f.end(), '/', '.');
    module = f;
  }
  if (module.empty() || module == "__main__") module = hint_module;
  if (module_out != nullptr) *module_out = module;
  return klass.empty() ? module + "::" + name : module + "::" + klass + "::" + name;
}

bool SanitiseUtf8(std::string* s) {
  std::string out;
  bool replaced = false;
  const auto* p = reinterpret_cast<const unsigned char*>(s->data());
  const size_t n = s->size();
  size_t i = 0;
  while (i < n) {
    // Fast path: eight ASCII bytes at a time.
    if (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, p + i, sizeof word);
      if ((word & 0x8080808080808080ull) == 0) {
        if (replaced) out.append(s->data() + i, 8);
        i += 8;
        continue;
      }
    }
    const unsigned char c = p[i];
    size_t len = c < 0x80           ? 1
                 : (c >> 5) == 0x6  ? 2
                 : (c >> 4) == 0xe  ? 3
                 : (c >> 3) == 0x1e ? 4
                                    : 0;
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; k++) ok = (p[i + k] & 0xc0) == 0x80;
    if (ok && len == 2) ok = c >= 0xc2;  // overlong
    if (ok && len == 3) ok = !(c == 0xe0 && p[i + 1] < 0xa0) && !(c == 0xed && p[i + 1] >= 0xa0);
    if (ok && len == 4)
      ok = !(c == 0xf0 && p[i + 1] < 0x90) && c <= 0xf4 && !(c == 0xf4 && p[i + 1] >= 0x90);
    if (ok) {
      if (replaced) out.append(s->data() + i, len);
      i += len;
      continue;
    }
    if (!replaced) {
      out.assign(s->data(), i);
      replaced = true;
    }
    out += "\xef\xbf\xbd";
    i++;
  }
  if (replaced) s->swap(out);
  return replaced;
}

namespace {

void AddCase(const pugi::xml_node& tc, const std::string& hint, ParsedFile* out) {
  Row row;
  row.key = NormaliseKey(tc.attribute("file").value(), tc.attribute("classname").value(),
                         tc.attribute("name").value(), hint, &row.module, &row.subtest);
  // Earlier attempts first: reruns recorded as children (pytest-rerunfailures / PyTorch's
  // <rerun>, Surefire's flaky*/rerun*).
  Outcome final_outcome = Outcome::kPass;
  std::string final_message, final_detail;
  bool have_final = false;
  for (const pugi::xml_node& c : tc.children()) {
    const char* n = c.name();
    if (std::strcmp(n, "rerun") == 0 || std::strcmp(n, "flakyFailure") == 0 ||
        std::strcmp(n, "rerunFailure") == 0) {
      row.attempts.push_back({Outcome::kFail, MessageOf(c)});
    } else if (std::strcmp(n, "flakyError") == 0 || std::strcmp(n, "rerunError") == 0) {
      row.attempts.push_back({Outcome::kError, MessageOf(c)});
    } else if (!have_final && std::strcmp(n, "failure") == 0) {
      final_outcome = Outcome::kFail;
      final_message = MessageOf(c);
      final_detail = DetailOf(c);
      have_final = true;
    } else if (!have_final && std::strcmp(n, "error") == 0) {
      final_outcome = Outcome::kError;
      final_message = MessageOf(c);
      final_detail = DetailOf(c);
      have_final = true;
    } else if (!have_final && std::strcmp(n, "skipped") == 0) {
      final_message = MessageOf(c);
      row.skip_reason = ClassifySkip(c.attribute("type").value(), final_message);
      final_outcome = row.skip_reason == SkipReason::kXFail ? Outcome::kXFail : Outcome::kSkip;
      have_final = true;
    }
  }
  // Surefire: rerunFailure children follow the first failure; that failure came first.
  if (final_outcome == Outcome::kFail || final_outcome == Outcome::kError) {
    bool reruns_after = false;
    for (const pugi::xml_node& c : tc.children()) {
      reruns_after |=
          std::strcmp(c.name(), "rerunFailure") == 0 || std::strcmp(c.name(), "rerunError") == 0;
    }
    if (reruns_after) {
      row.attempts.insert(row.attempts.begin(), {final_outcome, final_message, final_detail});
      final_message = row.attempts.back().message;
      final_detail = row.attempts.back().detail;
      final_outcome = row.attempts.back().outcome;
      row.attempts.pop_back();
    }
  }
  // GoogleTest marks skipped and disabled tests with attributes.
  const char* result = tc.attribute("result").value();
  const char* status = tc.attribute("status").value();
  if (!have_final && (std::strcmp(result, "skipped") == 0 || std::strcmp(status, "notrun") == 0)) {
    final_outcome = Outcome::kSkip;
    row.skip_reason =
        std::strcmp(status, "notrun") == 0 ? SkipReason::kDisabled : SkipReason::kOther;
  }
  row.attempts.push_back({final_outcome, final_message, final_detail});
  out->rows.push_back(std::move(row));
}

void Walk(const pugi::xml_node& node, const std::string& hint, ParsedFile* out) {
  for (const pugi::xml_node& c : node.children()) {
    if (c.type() != pugi::node_element) continue;
    if (std::strcmp(c.name(), "testcase") == 0) {
      AddCase(c, hint, out);
    } else if (std::strcmp(c.name(), "testsuite") == 0 ||
               std::strcmp(c.name(), "testsuites") == 0) {
      Walk(c, hint, out);
    }
  }
}

}  // namespace

ParsedFile ParseReportText(std::string text, const std::string& path, const std::string& hint) {
  ParsedFile out;
  out.path = path;
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    out.corrupt = true;
    out.problem = "empty file";
    return out;
  }
  if (SanitiseUtf8(&text)) out.problem = "non-UTF-8 bytes replaced by U+FFFD";
  pugi::xml_document doc;
  const pugi::xml_parse_result r =
      doc.load_buffer_inplace(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!r) {
    out.corrupt = true;
    out.problem = std::string("not well-formed XML at byte ") + std::to_string(r.offset) + ": " +
                  r.description();
    return out;
  }
  const pugi::xml_node root = doc.document_element();
  if (std::strcmp(root.name(), "testsuites") != 0 && std::strcmp(root.name(), "testsuite") != 0) {
    out.corrupt = true;
    out.problem =
        std::string("root element <") + root.name() + "> is not <testsuites> or <testsuite>";
    return out;
  }
  Walk(doc, hint, &out);  // the root itself is a <testsuites> or <testsuite>
  return out;
}

ParsedFile ParseReport(const std::string& path, const std::string& hint) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ParsedFile out;
    out.path = path;
    out.corrupt = true;
    out.problem = "cannot read file";
    return out;
  }
  in.seekg(0, std::ios::end);
  std::string text(static_cast<size_t>(std::max<std::streamoff>(0, in.tellg())), '\0');
  in.seekg(0);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(std::max<std::streamsize>(0, in.gcount())));
  return ParseReportText(std::move(text), path, hint);
}

}  // namespace a64jit::junit
