#include "torch_functions.h"

#include <algorithm>
#include <set>

namespace strided::explore {

const std::vector<std::string>& torch_function_names() {
  // dir(torch) in 1.13, less the Tensor methods it lacks (view, expand, unfold, contiguous, to,
  // and the properties but real and imag) and torch.alias, which torch keeps as
  // torch.ops.aten.alias.
  static const std::set<std::string> names = {
      "adjoint",      "as_strided",   "atleast_1d",    "atleast_2d",       "atleast_3d",
      "broadcast_to", "chunk",        "clone",         "conj",             "conj_physical",
      "detach",       "diagonal",     "dsplit",        "flatten",          "flip",
      "hsplit",       "imag",         "moveaxis",      "movedim",          "narrow",
      "permute",      "real",         "reshape",       "resolve_conj",     "select",
      "split",        "split_with_sizes", "squeeze",   "swapaxes",         "swapdims",
      "t",            "tensor_split", "transpose",     "unbind",           "unflatten",
      "unsqueeze",    "view_as_complex", "view_as_real", "vsplit",
  };
  static const std::vector<std::string> list(names.begin(), names.end());
  return list;
}

bool torch_has_function(const std::string& name) {
  const std::vector<std::string>& names = torch_function_names();
  return std::binary_search(names.begin(), names.end(), name);
}

FunctionForm function_form(const std::string& name, const Signature& params) {
  FunctionForm f;
  // torch.split is Python's own function (torch/functional.py), split(tensor,
  // split_size_or_sections, dim=0), where Tensor.split (torch/_tensor.py) names the size
  // split_size.
  if (name == "split") {
    f.signature = {"tensor", "split_size_or_sections", "dim="};
    f.options.renames = {{"tensor", "input"}, {"split_size_or_sections", "split_size"}};
  } else {
    f.signature = {"input"};
    f.signature.insert(f.signature.end(), params.begin(), params.end());
  }
  // The method's int list took every positional argument as the signature's one positional
  // parameter; after input it binds as one argument (torch.permute(x, (2, 0, 1))).
  f.options.varargs = false;
  return f;
}

const std::map<std::string, Method>& function_only_ops() {
  // atleast_Nd(*tensors) (torch/functional.py) hands one tensor to the native op: the explorer
  // takes that one, by position only.
  static const std::map<std::string, Method> table = {
      {"view_as_real", {{}, [](const Tensor& t, const Binder&, Meter&) { return view_as_real(t); }}},
      {"view_as_complex",
       {{}, [](const Tensor& t, const Binder&, Meter&) { return view_as_complex(t); }}},
      {"atleast_1d", {{"/"}, [](const Tensor& t, const Binder&, Meter&) { return atleast_1d(t); }}},
      {"atleast_2d", {{"/"}, [](const Tensor& t, const Binder&, Meter&) { return atleast_2d(t); }}},
      {"atleast_3d", {{"/"}, [](const Tensor& t, const Binder&, Meter&) { return atleast_3d(t); }}},
  };
  return table;
}

std::string no_torch_attribute(const std::string& name) {
  return "module 'torch' has no attribute '" + name + "'";
}

}  // namespace strided::explore
