// torch.f(input, ...): the ops of the expression language that PyTorch 1.13 also has as functions
// of the torch module, as in torch.view_as_real(z) or torch.split(x, 2)[1]. Each binds as the
// method of the same name does, with the tensor first (one home for each op's signature: the
// method's); the few ops torch has only as functions are here.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "binder.h"

namespace strided::explore {

// Whether torch 1.13 has torch.name among the ops the language knows.
bool torch_has_function(const std::string& name);
const std::vector<std::string>& torch_function_names();

// The function's signature, from params, the op's own parameters after its tensor: the tensor
// comes first, as "input", and an int list no longer takes every positional argument.
struct FunctionForm {
  Signature signature;
  BindOptions options;
};
FunctionForm function_form(const std::string& name, const Signature& params);

// The ops torch has only as functions: view_as_real, view_as_complex, atleast_1d/2d/3d.
const std::map<std::string, Method>& function_only_ops();

// PyTorch's AttributeError for a name the torch module lacks.
std::string no_torch_attribute(const std::string& name);

}  // namespace strided::explore
